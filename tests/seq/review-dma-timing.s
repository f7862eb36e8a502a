; DMA timing (machine.md §5.2): cost = 32 + ceil(bytes / 64); an engine
; spends up to Q = 64 cycles per round on its queue and left-over budget
; continues with the next request.  A (256 bytes) costs 36: done in round 0
; with 28 cycles left, which B (3712 bytes, cost 90) starts on; B needs 62
; more and completes in round 1.  The wait for B therefore proceeds in
; round 2 (T = 128) and the VTIME read after it sees 129 (without the
; carried budget B would finish in round 2 and the read would see 193).
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=3712 dst=[0x2000001000] dshape=(1,1) dstep=(0,0) desz=3712 sem=10 inc=1
        nop wait(sem10 >= 1)
        tld.u32 {r1}, [0x100170], shape=(1,1), step=(0,0)
        bne.u32 r1, 129, f1
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
