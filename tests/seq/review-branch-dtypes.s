; COMPARE_BRANCH operand reduction (sequencer.md §8.8; checklist item 13):
; both sides reduced to the dtype width, sign- or zero-extended.  Each line
; branches to the failure label exactly when the spec says the relation does
; not hold (or, for the bXX that must not be taken, when it wrongly holds).
        .org 0x01000000
start:  mov.u32 {r1, r2, r3, r4, r5, r6}, {0x1ffff, 0x80, 0xffffffff, 0x80000000, 0x17f, 0x3f800000}
        bne.i16 r1, 0xffff, f1          ; low 16 bits 0xffff = -1 = imm -1
        bne.u16 r1, 0xffffffff, f2      ; imm reduced too: 0xffff == 0xffff
        ble.u8 r2, 0x7f, f3             ; 128 > 127 unsigned
        bgt.i8 r2, 0x7f, f4             ; -128 > 127 is false for i8
        bge.i32 r3, 0, f5               ; -1 < 0 signed
        blt.u32 r3, 0, f6               ; 0xffffffff < 0 is false unsigned
        bne.f32 r4, 0, f7               ; -0.0 == +0.0
        bgt.u8 r5, 0x7f, f8             ; 0x17f reduces to 0x7f: not > 0x7f
        ble.f32 r6, r4, f9              ; 1.0 > -0.0 (register rhs)
        ble.i16 r2, r1, f10             ; 128 > -1 (i16 of 0x1ffff)
        ; the same relations, taken: each skips the FAIL write after it
        beq.i16 r1, 0xffff, .+128
        write.u32 [0x2805000000], 0x00213333
        bgt.u8 r2, 0x7f, .+128
        write.u32 [0x2805000000], 0x00223333
        blt.i8 r2, 0x7f, .+128
        write.u32 [0x2805000000], 0x00233333
        blt.i32 r3, 0, .+128
        write.u32 [0x2805000000], 0x00243333
        beq.f32 r4, 0, .+128
        write.u32 [0x2805000000], 0x00253333
        bgt.i16 r2, r1, .+128
        write.u32 [0x2805000000], 0x00263333
        bge.u32 r3, r4, .+128
        write.u32 [0x2805000000], 0x00273333
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
