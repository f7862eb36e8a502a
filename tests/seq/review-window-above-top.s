; mem_2d window check: hi >= 2^64 is a WINDOW_CROSSING (start from a
; register pair, 0xfffffffffffffffc, two u32 elements).
; exit: 139
; stderr: nxemu: fault: core=0 code=WINDOW_CROSSING(5) info=0 pc=0x0000000001000040 addr=0xfffffffffffffffc
        .org 0x01000000
start:  mov.u32 {r20, r21}, {0xfffffffc, 0xffffffff}
        tld.u32 {r1, r2}, [r21:r20], shape=(2,1), step=(1,0)
        halt
