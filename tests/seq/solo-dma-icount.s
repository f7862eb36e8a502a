; -icount-limit inside a multi-round solo slice with a DMA request in flight
; (softmmu/sched.c, solo_rounds).  A (8 KiB, cost 160) issues at c = 1 and
; would complete at T = 161 (round 2); the 150th instruction retires at
; c = 149 in round 2, so the limit line reads vtime=150 after the rounds'
; DMA steps ran (machine.md §8 Limits), the same as running every round.
; args: -icount-limit 150
; exit: 123
; stderr: nxemu: limit: icount=150 vtime=150
        .org 0x01000000
start:  nop
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
spin:   add.u32 r1, r1, 1
        beq.u32 r0, 0, spin
