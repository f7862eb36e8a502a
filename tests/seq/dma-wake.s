; A wait that a DMA completion satisfies resumes in the round after that
; completion, also while another request is queued behind it (machine.md
; §8: the blocked core re-attempts next round; skipping idle rounds must
; give the same result).  A and B copy 8 KiB each on one engine: cost
; 32 + 8192/64 = 160 cycles.  With Q = 64, A completes in round 2 (at 160)
; and B starts with the 32 cycles left; the wait on A's semaphore proceeds
; in round 3 (T = 192), so the VTIME read after it sees 193 (the wait used
; to resume only after B, and read 257).  The second half checks a DMA's
; _COMPLETE event update (post) with a request queued behind it the same way.
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02200000] dshape=(1,1) dstep=(0,0) desz=8192 sem=10 inc=1
        nop wait(sem9 >= 1)
        tld.u32 {r1}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r1, 193, f1
        nop wait(sem10 >= 1)
        ; the same with the completion as a _COMPLETE event update of the DMA
        ; instruction (post), not its semaphore: C and D (8 KiB each) issue in
        ; the round of the first VTIME read; the engine spends 64 cycles on C
        ; in that round and the next, 32 in the third (C done, D starts), so
        ; the wait resumes at the start of the fourth round: the second read
        ; is 3 x 64 = 192 cycles after the first (it used to wait for D: 256)
        tld.u32 {r2}, [0x100170], shape=(1,1), step=(0,0)
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02300000] dshape=(1,1) dstep=(0,0) desz=8192 sem=11 inc=1 post(sem21++)
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02400000] dshape=(1,1) dstep=(0,0) desz=8192 sem=12 inc=1
        nop wait(sem21 >= 1)
        tld.u32 {r3}, [0x100170], shape=(1,1), step=(0,0)
        sub.u32 r4, r3, r2
        bne.u32 r4, 192, f2
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
