; -cycle-limit inside multi-round solo slices with DMA requests in flight
; (softmmu/sched.c, solo_rounds): the run stops at the end of the first
; round whose new T reaches 300, T = 320, after 320 instructions (one per
; cycle), whatever the engines' progress; two 8 KiB requests (cost 160 each,
; queued at c = 1 and 2) complete at T = 161 and 321 (the second never).
; args: -cycle-limit 300
; exit: 123
; stderr: nxemu: limit: icount=320 vtime=320
        .org 0x01000000
start:  nop
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02200000] dshape=(1,1) dstep=(0,0) desz=8192 sem=10 inc=1
spin:   add.u32 r1, r1, 1
        beq.u32 r0, 0, spin
