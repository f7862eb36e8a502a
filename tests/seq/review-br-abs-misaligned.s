; ABS_IMM target not a multiple of 64: br_rel_imm_range.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=br_rel_imm_range pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a9 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 20 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00
        halt
