; A deadlock after a multi-round solo slice with a DMA request in flight
; (softmmu/sched.c, solo_rounds).  A (8 KiB, cost 160) issues at c = 0 and
; completes at T = 160 (round 2).  An 80-iteration loop (c = 2..161) takes
; the core into round 2, where its wait on A's semaphore blocks at c = 162;
; it retires at the start of round 3 (T = 192), the wait on sem 12 that
; nobody increments blocks at c = 193, and round 4 (T = 256) retires
; nothing with nothing queued: deadlock, reported with vtime=256.
; exit: 124
; stderr: nxemu: deadlock: vtime=256
; stderr-contains: state=BLOCKED wait=sem[12]
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
        mov.u32 {r8}, {80}
spin:   sub.u32 r8, r8, 1
        bne.u32 r8, 0, spin
        nop wait(sem9 >= 1)
        nop wait(sem12 >= 1)
        halt
