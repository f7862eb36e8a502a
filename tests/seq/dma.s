; DMA_MEMCPY / DMA_INDIRECT (sequencer.md §8.11-§8.12; checklist item 17):
; the §12.3 copy with its completion semaphore, post.r at issue vs post at
; completion, element size 0 = 64 KiB, a compute op (i32 add), a gather
; through an SBUF index array, and DRAIN.
        .data
        .org 0x020000fc
        .word 0xdeadbeef
        .org 0x02000100
        .word 0xa0, 0xa1, 0xa2, 0xa3
        .word 1, 2                              ; 0x02000110: addends
        .org 0x0201fffc
        .word 0x600df00d                        ; last word of a 64 KiB element
        .text
        .org 0x01000000
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1 post.r(sem20++)
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000001000] dshape=(64,1) dstep=(1,0) desz=4 sem=10 inc=2 post(sem21++)
        tld.u32 {r1, r2}, [0x2802701050], shape=(2,1), step=(1,0) ; sem20, sem21 right after issue
        bne.u32 r1, 1, f1                       ; post.r fired at issue
        bne.u32 r2, 0, f2                       ; post waits for the completion
        tld.u32 {r3}, [0x20000000fc], shape=(1,1), step=(0,0) wait(sem9 >= 1)
        bne.u32 r3, 0xdeadbeef, f3
        nop wait(sem10 >= 2)
        tld.u32 {r4}, [0x2802701054], shape=(1,1), step=(0,0)
        bne.u32 r4, 1, f4                       ; _COMPLETE after the increment
        tld.u32 {r5}, [0x20000010fc], shape=(1,1), step=(0,0)
        bne.u32 r5, 0xdeadbeef, f5
        ; element size 0 means 65536 bytes
        dma src=[0x02010000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x03000000] dshape=(1,1) dstep=(0,0) desz=0 sem=11 inc=1
        ; i32 add into preset destination words 10, 20
        tst.u32 [0x2000002000], #{10, 20}, shape=(2,1), step=(1,0)
        dma src=[0x02000110] sshape=(2,1) sstep=(1,0) sesz=4 dst=[0x2000002000] dshape=(2,1) dstep=(1,0) desz=4 sem=12 inc=1 op=add dt=i32
        ; gather: indices {3, 0, 2} in SBUF partition 0 at offset 0x3000
        tst.u32 [0x2000003000], #{3, 0, 2}, shape=(3,1), step=(1,0)
        dmai.gather src=[0x02000100] sn=3 sstep=1 sesz=4 dst=[0x2000004000] dn=3 dstep=1 desz=4 sidx=0x3000 sem=13 inc=1
        drain                                   ; everything above complete
        tld.u32 {r6}, [0x0300fffc], shape=(1,1), step=(0,0)
        bne.u32 r6, 0x600df00d, f6
        tld.u32 {r7, r8}, [0x2000002000], shape=(2,1), step=(1,0)
        bne.u32 r7, 11, f7
        bne.u32 r8, 22, f8
        tld.u32 {r9, r10, r11}, [0x2000004000], shape=(3,1), step=(1,0)
        bne.u32 r9, 0xa3, f9
        bne.u32 r10, 0xa0, f10
        bne.u32 r11, 0xa2, f11
        tld.u32 {r12, r13, r14}, [0x280270102c], shape=(3,1), step=(1,0) ; sem11..13
        and.u32 r15, r12, r13
        and.u32 r15, r15, r14
        bne.u32 r15, 1, f12
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
