; gdb test image for reverse execution over a long run: one store to
; Neuron 0x2000100 at the start (position 1), then 900,000 instructions
; that never touch it (450,000 passes of add + blt), then HALT.
        .org 0x01000000
start:  mov.u32 {r2}, {0x1234}                                  ; 0x1000000
        tst.u32 [0x02000100], {r2}, shape=(1,1), step=(0,0)     ; 0x1000040
loop:   add.u32 r1, r1, 1                                       ; 0x1000080
        blt.u32 r1, 450000, loop                                ; 0x10000c0
        halt                                                    ; 0x1000100
