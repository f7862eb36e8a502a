; A known instruction mix for the trace tests (tests/e2e/test_trace.py): the
; commit lines and coverage numbers it must produce are written out there from
; the sequencer specification.
        .data
        .org 0x02000000
        .word 0x11223344, 0x55667788
        .text
        .org 0x01000000
        mov.u32 {r1, r2}, {5, 7}
        add.u32 r3, r1, r2
        sub.u32 r4, r2, 10
        tst.u32 [0x02000010], {r3, r4}, shape=(2,1), step=(1,0)
        tld.u16 {r5}, [0x02000000], shape=(1,1), step=(0,0)
        nop post.r(sem3 += 2)
        nop wait(sem3 == 2) post(sem3--)
        write.u32 [0x02000020], 0xabcd
        beq.u32 r3, 12, ok
        halt
ok:     write.u32 [0x2805000000], 0x5555
        halt
