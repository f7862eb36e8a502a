; SEM_INC ignores V, so a nonzero V with no SEM wait fails
; events_unused_zero (§4.4).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=events_unused_zero pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a4 10 00 00 00 00 13 02 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
