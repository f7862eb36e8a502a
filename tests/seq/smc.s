; Decode-cache coherence: a record already executed (so cached) is rewritten
; first by TensorStore, then by a DMA; each new version must run.
        .data
        .org 0x02000000                         ; mov.u32 {r1}, {2}
        .quad 0x10a7, 0x0001090100000000, 0, 1, 2, 0, 0, 0
        .org 0x02000040                         ; mov.u32 {r1}, {3}
        .quad 0x10a7, 0x0001090100000000, 0, 1, 3, 0, 0, 0
        .text
        .org 0x01000000
        mov.u32 {r3}, {3}                       ; three passes
        tld.u64 {r20, r22, r24, r26, r28, r30, r32, r34}, [0x02000000], shape=(8,1), step=(1,0)
x:      mov.u32 {r1}, {1}
        add.u32 r4, r4, r1                      ; 1, then 2, then 3
        sub.u32 r3, r3, 1
        beq.u32 r3, 1, second
        tst.u64 [x], {r20, r22, r24, r26, r28, r30, r32, r34}, shape=(8,1), step=(1,0)
        bne.u32 r3, 0, x
        b done
second: dma src=[0x02000040] sshape=(1,1) sstep=(0,0) sesz=64 dst=[0x01000080] dshape=(1,1) dstep=(0,0) desz=64 sem=1 inc=1
        b x wait(sem1 >= 1)
done:   bne.u32 r4, 6, fail
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
