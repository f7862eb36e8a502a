; The events field (sequencer.md §4; checklist item 11): _READ vs _COMPLETE
; timing against the instruction's own results, DEC from 0, *_REG operands,
; *_THEN_* side actions, EVENT_SEMAPHORE's two waits and its update slot,
; GROUP_RESET_SEMAPHORES (range and bitmask).  Semaphores are read back
; through the EVSEM window (SEM_READ at 0x2802701000, EVENT at 0x2802700000).
        .org 0x01000000
        nop post.r(sem1--)                      ; 0 - 1 wraps
        tld.u32 {r1}, [0x2802701004], shape=(1,1), step=(0,0)
        bne.u32 r1, 0xffffffff, f1
        mov.u32 {r6}, {4}
        mov.u32 {r6}, {9} post.r(sem3 = r6)     ; _READ: before the result (4)
        mov.u32 {r5}, {7} post(sem2 = r5)       ; _COMPLETE: after it (7)
        tld.u32 {r2, r3}, [0x2802701008], shape=(2,1), step=(1,0)
        bne.u32 r2, 7, f2
        bne.u32 r3, 4, f3
        ; a load reads memory at phase E, before its own _READ update (phase U)
        tld.u32 {r4}, [0x2802701010], shape=(1,1), step=(0,0) post.r(sem4 += 5)
        bne.u32 r4, 0, f4
        nop post(evt4 set)
        nop wait(evt4 set then clear) post(sem6++)
        tld.u32 {r7}, [0x2802700010], shape=(1,1), step=(0,0)
        bne.u32 r7, 0, f5                       ; cleared by the side action
        mov.u32 {r8}, {3}
        nop post(sem7 = r8)
        nop wait(sem7 == r8)                    ; REG wait compares against R[8]
        ; both waits hold: side action on evt5, then the update slot
        evsem wait(sem6 >= 1) wait(evt5 clear then set) post(sem8 += 3)
        tld.u32 {r9}, [0x2802700014], shape=(1,1), step=(0,0)
        bne.u32 r9, 1, f6
        tld.u32 {r10}, [0x2802701020], shape=(1,1), step=(0,0)
        bne.u32 r10, 3, f7
        semclr 6..7
        semclr {1, 8}
        tld.u32 {r11, r12, r13, r14}, [0x2802701018], shape=(4,1), step=(1,0) ; sem6..sem9
        or.u32 r15, r11, r12
        or.u32 r15, r15, r13
        bne.u32 r15, 0, f8
        tld.u32 {r16}, [0x2802701004], shape=(1,1), step=(0,0)
        bne.u32 r16, 0, f9
        tld.u32 {r17}, [0x2802701008], shape=(1,1), step=(0,0) ; sem2 untouched
        bne.u32 r17, 7, f10
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
