; A negative stride crossing below a window boundary faults too.
; exit: 139
; stderr: nxemu: fault: core=0 code=WINDOW_CROSSING(5) info=0 pc=0x0000000001000000 addr=0x0000000002000000
        .org 0x01000000
        tld.u32 {r1, r2}, [0x02000000], shape=(2,1), step=(-1,0)
        halt
