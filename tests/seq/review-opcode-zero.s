; Checklist 1 (sequencer.md §6): opcode 0x00 is undefined -> INVALID_OPCODE,
; info=0 and FAULT_ADDR 0 (machine.md §9.1, §12.1), at the record's address.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_OPCODE(1) info=0 pc=0x0000000001000040 addr=0x0000000000000000
        .org 0x01000000
start:
        nop
        .rec 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
