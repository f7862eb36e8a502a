; Checklist 2: a NOP with inst_word_len 0x11, debug_cmd 2 and a nonzero
; reserved byte fails three predicates; the first of §7's order
; (header_word_len, id 1) is reported.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=header_word_len pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a4 11 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
