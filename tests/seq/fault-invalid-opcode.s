; An undefined opcode (0xb3 POLL_SEM is not on this machine) faults at decode.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_OPCODE(1) info=0 pc=0x0000000001000040 addr=0x0000000000000000
        .org 0x01000000
start:  nop
        .rec b3 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
