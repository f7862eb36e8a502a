; gdb test image: an undefined opcode (0xB3) at 0x1000040 faults with
; INVALID_OPCODE, which a debugger sees as SIGILL (machine.md §9.1).
        .org 0x01000000
start:  nop
        .rec b3 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
