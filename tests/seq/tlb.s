; Window TLB (machine.md §2.2-§2.3; checklist item 16) with -machine tlb=2:
; identity while WT_BASE = 0 (counters unchanged), then exactly one lookup
; per fetch and one per data instruction, LRU eviction.  The window table
; maps w1 -> PA 0x01000000 (RWX: this code), w2 -> 0x02000000 (RW), w4 ->
; 0x02000000 (R only).  Counted from the WT_BASE write on:
;   A  fetch miss (w1), data miss (w4)          hits 0 misses 2
;   B..F fetch hits                             hits 5
;   G  fetch hit, data miss (w2) evicts w4      hits 6 misses 3 evictions 1
;   H  fetch hit, data miss (w4) evicts w2      hits 7 misses 4 evictions 2
;   I  fetch hit, reads the counters            hits 8 misses 4 evictions 2
; args: -machine tlb=2 -device loader,file=@IMAGE@
        .data
        .org 0x02000010
        .word 0x1234, 0x5678
        .org 0x03000000                         ; window table, entries 0..7
        .quad 0, 0x0100000f, 0x02000007, 0, 0x02000003, 0, 0, 0
        .text
        .org 0x01000000
        tld.u32 {r1, r2, r3}, [0x100140], shape=(3,1), step=(2,0) ; hits, misses, evictions
        or.u32 r1, r1, r2
        or.u32 r1, r1, r3
        bne.u32 r1, 0, f1                       ; identity leaves them at 0
        write.u32 [0x100138], 8                 ; WT_LEN
        write.u32 [0x100130], 0x03000000        ; WT_BASE: translation from the next fetch
        tld.u32 {r4}, [0x04000010], shape=(1,1), step=(0,0)           ; A
        tld.u32 {r5, r6, r7}, [0x100140], shape=(3,1), step=(2,0)     ; B
        bne.u32 r4, 0x1234, f2                                        ; C
        bne.u32 r5, 1, f3                                             ; D
        bne.u32 r6, 2, f4                                             ; E
        bne.u32 r7, 0, f5                                             ; F
        tld.u32 {r8}, [0x02000014], shape=(1,1), step=(0,0)           ; G
        tld.u32 {r9}, [0x04000010], shape=(1,1), step=(0,0)           ; H
        tld.u32 {r10, r11, r12}, [0x100140], shape=(3,1), step=(2,0)  ; I
        bne.u32 r10, 8, f6
        bne.u32 r11, 4, f7
        bne.u32 r12, 2, f8
        bne.u32 r8, 0x5678, f9
        write.u32 [0x100130], 0                 ; identity again, for the test device
        write.u32 [0x2805000000], 0x5555
        halt
f1:     mov.u32 {r30}, {0x00013333}
        b fail
f2:     mov.u32 {r30}, {0x00023333}
        b fail
f3:     mov.u32 {r30}, {0x00033333}
        b fail
f4:     mov.u32 {r30}, {0x00043333}
        b fail
f5:     mov.u32 {r30}, {0x00053333}
        b fail
f6:     mov.u32 {r30}, {0x00063333}
        b fail
f7:     mov.u32 {r30}, {0x00073333}
        b fail
f8:     mov.u32 {r30}, {0x00083333}
        b fail
f9:     mov.u32 {r30}, {0x00093333}
fail:   write.u32 [0x100130], 0
        write.u32 [0x2805000000], r30
        halt
