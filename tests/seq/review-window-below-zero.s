; mem_2d window check (sequencer.md §8.9): lo < 0 is a WINDOW_CROSSING
; (FAULT_ADDR = start) even though start 0 is in window 0.
; exit: 139
; stderr: nxemu: fault: core=0 code=WINDOW_CROSSING(5) info=0 pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:  tld.u32 {r1, r2}, [r21:r20], shape=(2,1), step=(-1,0)
        halt
