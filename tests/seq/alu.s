; ALU_OP (sequencer.md §8.7; checklist item 14): wraparound, division and
; modulo by zero, shift counts mod W, signed vs unsigned MAX and compares,
; 64-bit pairs, dst_dtype, FP32 rules of machine.md §12.13.  Expected values
; are worked out from the spec tables; every check has its own FAIL code.
        .org 0x01000000
        mov.u32 {r1, r2, r3}, {0x7fffffff, 0x80000000, 0xffffffff}
        absdiff.i32 r10, r1, r2                 ; §8.7 example
        bne.u32 r10, 0xffffffff, f1
        add.u32 r10, r3, 2                      ; wraps
        bne.u32 r10, 1, f2
        div.u32 r10, r1, 0                      ; b = 0 -> all ones
        bne.u32 r10, 0xffffffff, f3
        div.i32 r10, r2, r3                     ; INT_MIN / -1 = INT_MIN
        bne.u32 r10, 0x80000000, f4
        mod.i32 r10, r1, 0                      ; b = 0 -> a
        bne.u32 r10, 0x7fffffff, f5
        mod.i32 r10, r2, r3                     ; INT_MIN % -1 = 0
        bne.u32 r10, 0, f6
        lshl.u32 r10, r3, 33                    ; count mod 32 = 1
        bne.u32 r10, 0xfffffffe, f7
        ashr.u32 r10, r2, 4                     ; sign replicated for every dtype
        bne.u32 r10, 0xf8000000, f8
        max.i32 r10, r1, r2
        bne.u32 r10, 0x7fffffff, f9
        max.u32 r10, r1, r2
        bne.u32 r10, 0x80000000, f10
        lt.i32 r10, r3, 0                       ; -1 < 0
        bne.u32 r10, 1, f11
        lt.u32 r10, r3, 0
        bne.u32 r10, 0, f12
        abs.i32 r10, r2                         ; |INT_MIN| = INT_MIN
        bne.u32 r10, 0x80000000, f13
        mov.u32 {r4, r5}, {0xffffffff, 1}
        add.u64 r7:r6, r5:r4, 1                 ; 0x1_ffffffff + 1
        bne.u32 r6, 0, f14
        bne.u32 r7, 2, f15
        sub.i64 r7:r6, r5:r4, 0x200000000       ; = -1
        and.u32 r10, r6, r7
        bne.u32 r10, 0xffffffff, f16
        add.u32.u32 r10, r1, 1                  ; explicit dst_dtype
        bne.u32 r10, 0x80000000, f17
        ; FP32
        mov.u32 {r20, r21, r23, r24, r25, r26}, {0x3f800000, 0x40000000, 0x7f800000, 0x7fc00001, 0xffc00001, 0x80000000}
        add.f32 r22, r20, r21                   ; 1 + 2 = 3
        bne.u32 r22, 0x40400000, f18
        mul.f32 r22, r23, 0                     ; inf * 0 = canonical NaN
        bne.u32 r22, 0x7fc00000, f19
        max.f32 r22, r24, r20                   ; one NaN: the other operand
        bne.u32 r22, 0x3f800000, f20
        abs.f32 r22, r25                        ; sign cleared, payload kept
        bne.u32 r22, 0x7fc00001, f21
        min.f32 r22, r0, r26                    ; min(+0, -0) = -0
        bne.u32 r22, 0x80000000, f22
        ne.f32 r22, r24, r24                    ; NaN != NaN is true
        bne.u32 r22, 0x3f800000, f23
        eq.f32 r22, r24, r24
        bne.u32 r22, 0, f24
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
