; A blocked instruction keeps its fetched record (sequencer.md §2.2): while
; the nop at `kept` waits for sem9, the DMA it waits for overwrites that
; very record with `write.u32 [0x2805000000], r5`.  The retry restarts at
; phase W with the old record, so the nop completes and r5 becomes PASS
; before the branch back fetches the new record.  A re-fetch on retry would
; run the write at once with r5 = FAIL 8; a copy that never landed ends in
; FAIL 1.
        .data
        .org 0x02000000
        .word 0x000010a5, 0, 0, 0x00050900, 0x05000000, 0x00000028, 0, 0
        .word 0, 0, 0, 0, 0, 0, 0, 0
        .text
        .org 0x01000000
start:  mov.u32 {r5}, {0x00083333}
        dma src=[0x02000000] sshape=(16,1) sstep=(1,0) sesz=4 dst=[0x01000080] dshape=(16,1) dstep=(1,0) desz=4 sem=9 inc=1
kept:   nop wait(sem9 >= 1)
        beq.u32 r1, 1, f1                       ; second pass: the copy did not run
        mov.u32 {r1, r5}, {1, 0x5555}
        b kept
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
