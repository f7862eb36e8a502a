; DMA_ENGINE (machine.md §3, §5.3): a value >= engines is taken modulo 16,
; so DMA_ENGINE = 17 sends the §12.3 copy to engine 1: its COMPLETED = 1 and
; BYTES = 256, engine 0 stays at 0.
        .org 0x01000000
start:  write.u32 [0x100178], 17
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1
        nop wait(sem9 >= 1)
        tld.u32 {r1, r2, r3, r4}, [0x2803801008], shape=(4,1), step=(1,0)
        tld.u32 {r5, r6}, [0x2803800008], shape=(2,1), step=(2,0)
        bne.u32 r1, 1, f1
        bne.u32 r3, 256, f2
        or.u32 r2, r2, r4
        or.u32 r2, r2, r5
        or.u32 r2, r2, r6
        bne.u32 r2, 0, f3
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
