; NOTIFY (sequencer.md §8.5, machine.md §3): 16-byte entries {pc, payload,
; core, queue, kind = 1}, TAIL, overflow on a full and on a disabled queue,
; ring wrap after software advances HEAD.
        .org 0x01000000
        write.u32 [0x100400], 0x02100000        ; NQ0_BASE
        write.u32 [0x100408], 2                 ; NQ0_SIZE
        mov.u32 {r7}, {0x66}
        mov.u32 {r9}, {pclo}                    ; the first notify is at r9 + 64
        notify 0, 0x55
        notify 0, r7
        notify 0, 1                             ; full: dropped
        notify 1, 2                             ; queue 1 disabled: dropped
        tld.u32 {r10, r11, r12, r13}, [0x02100000], shape=(4,1), step=(1,0)
        add.u32 r14, r9, 64
        bne.u32 r10, r14, f1
        bne.u32 r11, 0, f2
        bne.u32 r12, 0x55, f3
        bne.u32 r13, 0x01000000, f4             ; core 0, queue 0, kind 1
        tld.u32 {r15, r16, r17}, [0x02100010], shape=(3,1), step=(1,0)
        add.u32 r14, r14, 64
        bne.u32 r15, r14, f5
        bne.u32 r17, 0x66, f6
        tld.u32 {r19, r20}, [0x100410], shape=(2,1), step=(1,0) ; NQ0 TAIL, OVERFLOW
        bne.u32 r19, 2, f7
        bne.u32 r20, 1, f8
        tld.u32 {r21}, [0x100434], shape=(1,1), step=(0,0)      ; NQ1 OVERFLOW
        bne.u32 r21, 1, f9
        write.u32 [0x10040c], 1                 ; HEAD = 1: one free slot
        notify 0, 3                             ; slot 2 % 2 = 0
        tld.u32 {r22}, [0x02100008], shape=(1,1), step=(0,0)
        bne.u32 r22, 3, f10
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
