; VTIME (machine.md §3, §8): T_round_start + cycles used so far by the core
; in its slice: 0 for the first instruction, 1 for the second.  A wait on a
; DMA completion (the §12.3 copy, 36 cycles, completes in round 0) blocks and
; forfeits the slice; in round 1 (T = 64) the wait retires (1 cycle) and the
; next read sees 65.
        .org 0x01000000
start:  tld.u32 {r1, r2}, [0x100170], shape=(2,1), step=(1,0)
        tld.u32 {r3}, [0x100170], shape=(1,1), step=(0,0)
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1
        nop wait(sem9 >= 1)
        tld.u32 {r4}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r1, 0, f1
        bne.u32 r2, 0, f2
        bne.u32 r3, 1, f3
        bne.u32 r4, 65, f4
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
