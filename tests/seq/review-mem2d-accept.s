; Checklist 5, 6 and 9, the accepted side: a u32 TensorLoad whose unused
; data bytes hold odd numbers is valid (the u64 even rule does not apply);
; 32 elements (4 x 8) load; immediate stores at their caps (u16 16, u32 8,
; f32 8, u64 4, u8 32) and a 32-element register store execute.  Expected
; values follow from the walk of §8.9 and the packed immediates layout.
        .data
        .org 0x02000000
        .word 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107
        .word 0x108, 0x109, 0x10a, 0x10b, 0x10c, 0x10d, 0x10e, 0x10f
        .word 0x110, 0x111, 0x112, 0x113, 0x114, 0x115, 0x116, 0x117
        .word 0x118, 0x119, 0x11a, 0x11b, 0x11c, 0x11d, 0x11e, 0x11f
        .text
        .org 0x01000000
start:  .rec aa 10 00 00 00 00 00 00 00 00 00 00 09 00 01 01 00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 00 02 03 05 07 09 0b 0d 0f 11 13 15 17 19 1b 1d 1f 21 23 25 27 29 2b 2d 2f 31 33 35 37 39 3b 3d 3f
        bne.u32 r2, 0x100, f1
        ; walk (4 x 8), s1 = 4: element k is word k
        tld.u32 {r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31}, [0x02000000], shape=(4,8), step=(1,4)
        bne.u32 r0, 0x100, f2
        bne.u32 r17, 0x111, f3
        bne.u32 r31, 0x11f, f4
        tst.u16 [0x02001000], #{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xbeef}, shape=(16,1), step=(1,0)
        tld.u16 {r40}, [0x0200101e], shape=(1,1), step=(0,0)
        bne.u32 r40, 0xbeef, f5
        tst.u32 [0x02001100], #{1, 2, 3, 4, 5, 6, 7, 0xcafe0008}, shape=(8,1), step=(1,0)
        tld.u32 {r41}, [0x0200111c], shape=(1,1), step=(0,0)
        bne.u32 r41, 0xcafe0008, f6
        tst.f32 [0x02001200], #{1, 2, 3, 4, 5, 6, 7, 0x7fc00001}, shape=(8,1), step=(1,0)
        tld.u32 {r42}, [0x0200121c], shape=(1,1), step=(0,0)
        bne.u32 r42, 0x7fc00001, f7
        tst.u64 [0x02001300], #{1, 2, 3, 0x1122334455667788}, shape=(4,1), step=(1,0)
        tld.u32 {r44, r45}, [0x02001318], shape=(2,1), step=(1,0)
        bne.u32 r44, 0x55667788, f8
        bne.u32 r45, 0x11223344, f9
        tst.u8 [0x02001400], #{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 0xa5}, shape=(32,1), step=(1,0)
        tld.u32 {r46}, [0x0200141c], shape=(1,1), step=(0,0)
        bne.u32 r46, 0xa51e1d1c, f10
        ; register store of 32 u8 elements: low bytes of r0..r31 = 0x00..0x1f
        tst.u8 [0x02001500], {r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31}, shape=(32,1), step=(1,0)
        tld.u32 {r47, r48}, [0x02001500], shape=(2,1), step=(7,0)
        bne.u32 r47, 0x03020100, f11
        bne.u32 r48, 0x1f1e1d1c, f12
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
