; Checklist 1/2: debug_cmd 2 with a bad events wait mode and a nonzero
; reserved byte: header_debug_cmd (2) comes first.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=header_debug_cmd pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a4 10 02 00 42 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
