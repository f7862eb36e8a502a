; link = 1 with a conditional cmp_op: br_link (§8.8).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=br_link pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a9 10 00 00 00 00 00 00 00 00 00 00 03 09 03 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 40 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
