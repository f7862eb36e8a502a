; ALU_OP details beyond alu.s (sequencer.md §8.7; checklist item 14), values
; worked out by hand from the table and the FP32 rules:
        .org 0x01000000
start:  mov.u32 {r10, r11}, {1, 0x80000000}
        lshl.u64 r13:r12, r11:r10, 65           ; count mod 64 = 1: 0x2
        bne.u32 r12, 2, f1
        bne.u32 r13, 0, f2
        mov.u32 {r10, r11}, {0, 0x80000000}     ; INT64_MIN
        ashr.i64 r13:r12, r11:r10, 63           ; all ones
        and.u32 r14, r12, r13
        bne.u32 r14, 0xffffffff, f3
        div.i64 r13:r12, r11:r10, -1            ; INT64_MIN / -1 = INT64_MIN
        bne.u32 r12, 0, f4
        bne.u32 r13, 0x80000000, f5
        mov.u32 {r1, r2}, {0xfffffff9, 2}       ; -7, 2
        mod.i32 r3, r1, r2                      ; sign of a: -1
        bne.u32 r3, 0xffffffff, f6
        div.i32 r3, r1, r2                      ; truncating: -3
        bne.u32 r3, 0xfffffffd, f7
        mod.u32 r3, r2, 0                       ; b = 0 -> a
        bne.u32 r3, 2, f8
        absdiff.u32 r3, r2, 10                  ; 8
        bne.u32 r3, 8, f9
        mov.u32 {r4, r5}, {0xffffffff, 0xffffffff}
        mul.i64 r7:r6, r5:r4, -1                ; (-1) * (-1) = 1
        bne.u32 r6, 1, f10
        bne.u32 r7, 0, f11
        eq.i64 r7:r6, r5:r4, -1                 ; 1 in the 64-bit width
        bne.u32 r6, 1, f12
        bne.u32 r7, 0, f13
        max.i64 r7:r6, r5:r4, 1                 ; signed: 1
        bne.u32 r6, 1, f14
        max.u64 r7:r6, r5:r4, 1                 ; unsigned: all ones
        bne.u32 r7, 0xffffffff, f15
        mov.u32 {r20, r21, r22, r23, r24}, {0x80000000, 0x3f800000, 0x7f800000, 0x00000001, 0x33800000}
        max.f32 r25, r20, r0                    ; max(-0, +0) = +0
        bne.u32 r25, 0, f16
        gt.f32 r25, r21, r20                    ; 1.0 > -0: 1.0f
        bne.u32 r25, 0x3f800000, f17
        div.f32 r25, r21, r0                    ; 1 / +0 = +inf
        bne.u32 r25, 0x7f800000, f18
        sub.f32 r25, r22, r22                   ; inf - inf = canonical NaN
        bne.u32 r25, 0x7fc00000, f19
        add.f32 r25, r23, r23                   ; subnormals kept
        bne.u32 r25, 2, f20
        add.f32 r25, r21, r24                   ; 1 + 2^-24: tie -> even (1.0)
        bne.u32 r25, 0x3f800000, f21
        lt.f32 r25, r0, 0x7fc00000              ; compare with NaN: false
        bne.u32 r25, 0, f22
        lxor.u32 r25, r21, r22                  ; both nonzero: 0
        bne.u32 r25, 0, f23
        not.u32 r25, r21
        bne.u32 r25, 0xc07fffff, f24
        sub_int.i32 r25, r0, 1                  ; 0 - 1
        bne.u32 r25, 0xffffffff, f25
        abs.i64 r7:r6, r11:r10                  ; |INT64_MIN| = INT64_MIN
        bne.u32 r7, 0x80000000, f26
        ashl.i32 r25, r21, 32                   ; count mod 32 = 0
        bne.u32 r25, 0x3f800000, f27
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
