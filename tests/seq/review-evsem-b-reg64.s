; EVENT_SEMAPHORE wait_b SEM_GE_REG with value 64: every wait_b/update
; failure reports evsem_ext_events (59), not events_reg_range (§8.1).
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=evsem_ext_events pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a0 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 85 01 00 00 40 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
