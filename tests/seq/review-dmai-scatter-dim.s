; scatter_dim 1: dmai_flags.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=dmai_flags pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec bb 10 00 00 00 00 00 00 00 00 00 00 00 00 80 40 00 00 00 02 00 00 00 00 01 00 00 00 02 00 04 00 00 00 00 03 00 00 00 00 01 00 00 00 02 00 04 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
