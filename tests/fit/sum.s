; Sums sixteen u32 words at 0x02000000 (a FIT loadable) and reports PASS if the
; sum is what mkdata.py put there: 1 + 2 + ... + 16 = 136.  sequencer.md §12.1.
        .org 0x01000000
start:  mov.u32 {r1, r2, r3, r4}, {0, 0x02000000, 0, 4}  ; sum, ptr lo, ptr hi, count
loop:   tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0)
        add.u32 r1, r1, r8
        add.u32 r1, r1, r9
        add.u32 r1, r1, r10
        add.u32 r1, r1, r11
        add.u32 r2, r2, 16
        sub.u32 r4, r4, 1
        bne.u32 r4, 0, loop
        beq.u32 r1, 136, pass
        write.u32 [0x2805000000], 0x00013333             ; FAIL, exit status 1
        halt
pass:   write.u32 [0x2805000000], 0x5555                 ; PASS, exit status 0
        halt
