; A regression image: counts r1 down from 1000 and passes when it reaches 0.
        .text
        .org 0x01000000
start:  mov.u32 {r1}, {1000}
loop:   sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        write.u32 [0x2805000000], 0x5555
        halt
