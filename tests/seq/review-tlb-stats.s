; TLB flushes and statistics (machine.md §2.2, §3): CONTROL.TLB_FLUSH and a
; WT_LEN write empty the TLB without changing the counters; a write to a
; counter clears it.  Window 1 maps itself RWX; one lookup per fetch:
;   i2 miss (M1) | i3 hit (H1), flush | i4 miss (M2), reads H1 M2 E0
;   i5 hit (H2), clears MISSES | i6 hit (H3), WT_LEN write flushes
;   i7 miss (M1), reads H3 M1 E0
        .data
        .org 0x03000000
        .quad 0, 0x0100000f
        .text
        .org 0x01000000
start:  write.u32 [0x100138], 8
        write.u32 [0x100130], 0x03000000
        nop
        write.u32 [0x10010c], 8
        tld.u32 {r1, r2, r3, r4, r5, r6}, [0x100140], shape=(6,1), step=(1,0)
        write.u32 [0x100148], 0
        write.u32 [0x100138], 8
        tld.u32 {r7, r8, r9}, [0x100140], shape=(3,1), step=(2,0)
        write.u32 [0x100130], 0                 ; identity again (test device)
        bne.u32 r1, 1, f1
        bne.u32 r3, 2, f2
        bne.u32 r5, 0, f3
        or.u32 r2, r2, r4
        or.u32 r2, r2, r6
        bne.u32 r2, 0, f4
        bne.u32 r7, 3, f5
        bne.u32 r8, 1, f6
        bne.u32 r9, 0, f7
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
