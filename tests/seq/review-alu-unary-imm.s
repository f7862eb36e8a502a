; A unary op (NOT) with a nonzero immediate: alu_datasrc (§8.7).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=alu_datasrc pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 01 09 01 00 01 00 00 00 02 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
