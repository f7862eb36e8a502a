; gdb test image: a counted loop with a TensorStore (docs/gdb.rst tests).
; r1 counts 1..5; each pass stores r1 to Neuron 0x2000000 (the watch target).
; Then the test device FINISHER reports PASS (exit 0).
        .org 0x01000000
start:  mov.u32 {r1}, {0}                                       ; 0x1000000
loop:   add.u32 r1, r1, 1                                       ; 0x1000040
        tst.u32 [0x02000000], {r1}, shape=(1,1), step=(0,0)     ; 0x1000080
        blt.u32 r1, 5, loop                                     ; 0x10000c0
        mov.u32 {r2}, {0x5555}                                  ; 0x1000100
        write.u32 [0x2805000000], r2                            ; 0x1000140
        halt
