; Read-before-write inside one instruction (sequencer.md §8.9): a TensorLoad
; reads all elements before writing registers, a TensorStore reads all
; sources before writing memory; both walk over the own NX block's R0..R5.
; A call through r63:r62 computes the target before the link overwrites
; R62/R63 (§8.8).
        .org 0x01000000
start:  mov.u32 {r0, r1}, {0xa, 0xb}
        tld.u32 {r1, r2}, [0x100000], shape=(2,1), step=(1,0)   ; R0, old R1
        bne.u32 r1, 0xa, f1
        bne.u32 r2, 0xb, f2
        mov.u32 {r3, r4}, {0x33, 0x44}
        tst.u32 [0x100010], {r3, r4}, shape=(2,1), step=(1,0)   ; R4 = R3, R5 = old R4
        bne.u32 r4, 0x33, f3
        bne.u32 r5, 0x44, f4
        mov.u32 {r62, r63}, {0x01001000, 0}
        call r63:r62                                            ; at 0x01000240
        bne.u32 r20, 1, f5
        bne.u32 r62, 0x01000280, f6
        write.u32 [0x2805000000], 0x5555
        halt
f1:     write.u32 [0x2805000000], 0x00013333
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
f3:     write.u32 [0x2805000000], 0x00033333
        halt
f4:     write.u32 [0x2805000000], 0x00043333
        halt
f5:     write.u32 [0x2805000000], 0x00053333
        halt
f6:     write.u32 [0x2805000000], 0x00063333
        halt
        .org 0x01001000
        mov.u32 {r20}, {1}
        b r63:r62
