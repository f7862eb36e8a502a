; Event timing rules (sequencer.md §4.3, §8.1, §8.10; checklist item 11):
;  a. DMA _COMPLETE update after the completion-semaphore increment:
;     sem9 += 1, then sem9 = 7  -> 7 (the reverse order would give 8)
;  b. a DMA's _COMPLETE *_REG operand is read at issue: 5, not the later 100
;  c. wait side action before the _READ update: evt4 cleared then set -> 1
;  d. _COMPLETE after the side action: evt5 set then cleared -> 0
;  e. GROUP_RESET between _READ and _COMPLETE: sem3 -> 0, sem4 -> 5
;  f. SEM_SUB_REG 10 - 3 = 7; SEM_ADD_IMM wraps 0xffffffff + 2 = 1
;  g. semaphore waits compare unsigned: 0x80000000 > 5 holds
;  h. both EVENT_SEMAPHORE waits on evt9 are evaluated at one instant,
;     then side actions a (clear) and b; then its update sets evt7
        .org 0x01000000
start:  mov.u32 {r10}, {5}
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1 post(sem9 = 7)
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000001000] dshape=(64,1) dstep=(1,0) desz=4 sem=10 inc=0 post(sem11 += r10)
        mov.u32 {r10}, {100}
        drain
        tld.u32 {r1, r2, r3}, [0x2802701024], shape=(3,1), step=(1,0) ; sem9..sem11
        bne.u32 r1, 7, f1
        bne.u32 r2, 0, f2
        bne.u32 r3, 5, f3
        nop post(evt4 set)
        nop wait(evt4 set then clear) post.r(evt4 set)
        nop wait(evt5 clear then set) post(evt5 clear)
        tld.u32 {r4, r5}, [0x2802700010], shape=(2,1), step=(1,0)     ; evt4, evt5
        bne.u32 r4, 1, f4
        bne.u32 r5, 0, f5
        nop post(sem3 = 9)
        nop post(sem4 = 9)
        semclr 3..3 post.r(sem3 += 5)
        semclr 4..4 post(sem4 += 5)
        tld.u32 {r6, r7}, [0x280270100c], shape=(2,1), step=(1,0)     ; sem3, sem4
        bne.u32 r6, 0, f6
        bne.u32 r7, 5, f7
        mov.u32 {r12}, {3}
        nop post(sem12 = 10)
        nop post(sem12 -= r12)
        nop post(sem13 = 0xffffffff)
        nop post(sem13 += 2)
        tld.u32 {r8, r9}, [0x2802701030], shape=(2,1), step=(1,0)     ; sem12, sem13
        bne.u32 r8, 7, f8
        bne.u32 r9, 1, f9
        nop post(sem14 = 0x80000000)
        nop wait(sem14 > 5)
        nop post(evt9 set)
        evsem wait(evt9 set then clear) wait(evt9 set) post(evt7 set)
        tld.u32 {r11, r13}, [0x2802700024], shape=(2,1), step=(-2,0)  ; evt9, evt7
        bne.u32 r11, 0, f10
        bne.u32 r13, 1, f11
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
