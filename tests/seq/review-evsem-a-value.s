; EVENT_SEMAPHORE with wait_a NONE but a nonzero wait_a value: the
; standard events check, events_unused_zero (5).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=events_unused_zero pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a0 10 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
