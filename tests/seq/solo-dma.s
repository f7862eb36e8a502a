; Multi-round solo slices with DMA requests in flight (softmmu/sched.c,
; solo_rounds): until a request completes the engines' progress cannot be
; seen, so they may lag behind the lone core and catch up after its slice;
; the slice ends no later than the round of the next completion, and with
; the round in which the core queues another request.  Everything below
; must read what running every round gives (machine.md §8), worked out by
; hand with Q = 64 and cost = 32 + ceil(bytes / 64); cycle c of the core is
; VTIME c (one instruction per cycle, never blocked until the waits).
        .org 0x01000000
; Part 1: poll memory a DMA writes.  A (8 KiB, cost 160) issues at c = 1:
; the engine idles 1 cycle, then 63 + 64 cycles in rounds 0 and 1 and 33 in
; round 2, so A's bytes land at T = 161, in round 2 after the core's part.
; The poll's tld at c = 2 + 3i first sees them in round 3 (c >= 192): i = 64,
; so 65 iterations, and the VTIME read after the loop is at c = 197.
start:  write.u32 [0x02001ffc], 0x1234
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
poll1:  tld.u32 {r5}, [0x02101ffc], shape=(1,1), step=(0,0)
        add.u32 r6, r6, 1
        beq.u32 r5, 0, poll1
        tld.u32 {r7}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r6, 65, f1
        bne.u32 r7, 197, f2
; Part 2: B (16 KiB, cost 288) issues at c = 200 on engine 0 (idle 8 cycles,
; then 56, 64, 64, 64 in rounds 3..6 and 40 in round 7: done at T = 488).
; The slice from round 4 covers rounds 4..7 at most; a 60-iteration loop
; (c = 202..321) takes the core into round 5, where it selects engine 1 and
; queues C (256 bytes, cost 36) at c = 323: the slice ends with round 5,
; engine 0 catches up over round 4 while C waits for its issue time, and in
; round 5 C completes at 323 + 36 = 359.  The wait at c = 324 blocks until
; round 6: it retires at c = 384 and the VTIME read sees 385.
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=16384 dst=[0x02200000] dshape=(1,1) dstep=(0,0) desz=16384 sem=10 inc=1
        mov.u32 {r8}, {60}
spin:   sub.u32 r8, r8, 1
        bne.u32 r8, 0, spin
        write.u32 [0x100178], 1
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x02300000] dshape=(64,1) dstep=(1,0) desz=4 sem=11 inc=1
        nop wait(sem11 >= 1)
        tld.u32 {r9}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r9, 385, f3
; Part 3: poll engine 0's COMPLETED register (A and B: 2) while B is in
; flight: B completes in round 7, so the tld at c = 387 + 3i first reads 2
; in round 8 (c >= 512): i = 42, 43 iterations, VTIME read at c = 516.
poll3:  tld.u32 {r10}, [0x2803800008], shape=(1,1), step=(0,0)
        add.u32 r11, r11, 1
        bne.u32 r10, 2, poll3
        tld.u32 {r12}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r11, 43, f4
        bne.u32 r12, 516, f5
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
