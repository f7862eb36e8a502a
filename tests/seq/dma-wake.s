; A wait that a DMA completion satisfies resumes in the round after that
; completion, also while another request is queued behind it (machine.md
; §8: the blocked core re-attempts next round; skipping idle rounds must
; give the same result).  A and B copy 8 KiB each on one engine: cost
; 32 + 8192/64 = 160 cycles.  With Q = 64, A completes in round 2 (at 160)
; and B starts with the 32 cycles left; the wait on A's semaphore proceeds
; in round 3 (T = 192), so the VTIME read after it sees 193 (the wait used
; to resume only after B, and read 257).
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02200000] dshape=(1,1) dstep=(0,0) desz=8192 sem=10 inc=1
        nop wait(sem9 >= 1)
        tld.u32 {r1}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r1, 193, f1
        nop wait(sem10 >= 1)
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
