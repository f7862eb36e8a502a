; gdb test image for reverse execution from snapshots: loop.s with 300000
; passes (900001 instructions to the mov at 0x1000100), then the test
; device FINISHER reports FAIL with exit status 3.
; r1 counts 1..300000; each pass stores r1 to Neuron 0x2000000.
        .org 0x01000000
start:  mov.u32 {r1}, {0}                                       ; 0x1000000
loop:   add.u32 r1, r1, 1                                       ; 0x1000040
        tst.u32 [0x02000000], {r1}, shape=(1,1), step=(0,0)     ; 0x1000080
        blt.u32 r1, 300000, loop                                ; 0x10000c0
        mov.u32 {r2}, {0x00033333}                              ; 0x1000100
        write.u32 [0x2805000000], r2                            ; 0x1000140
        halt
