; EVENT_SEMAPHORE with byte 6 = 0x42: the standard update slot is skipped
; by the events check, so evsem_std_update_zero (58) reports, not
; events_update_mode (§8.1).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=evsem_std_update_zero pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a0 10 00 00 00 00 42 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
