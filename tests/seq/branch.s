; COMPARE_BRANCH (sequencer.md §8.8; checklist item 13): dtype-width
; compares (INT8 immediate 0xff equals -1), register right-hand sides, FP32
; NaN, call/return through R62/R63, REGISTER and REL_REGISTER targets, a
; not-taken misaligned target (no fault).
        .org 0x01000000
        mov.u32 {r1, r2}, {0xffffffff, 0xff}
        beq.i8 r1, 0xff, ok1                    ; -1 == -1 at 8 bits
        b f1
ok1:    bne.u8 r1, r2, f2                       ; 0xff == 0xff
        blt.i16 r1, 0, ok2                      ; -1 < 0
        b f3
ok2:    blt.u16 r1, 0, f4                       ; 0xffff < 0 is false
        bgt.u32 r1, r2, ok3                     ; register rhs, unsigned
        b f5
ok3:    bgt.i32 r1, r2, f6                      ; -1 > 255 is false
        call sub
back:   mov.u32 {r12}, {pclo}                   ; this instruction's own address
        bne.u32 r9, 1, f7
        bne.u32 r11, r12, f8                    ; R62 was the address after the call
        bne.u32 r13, 0, f9                      ; R63 = high half
        mov.u32 {r14}, {128}
        b .+r14                                 ; REL_REGISTER: skip one record
        b f10
        mov.u32 {r15, r16}, {0x01001000, 0}
        b r16:r15                               ; REGISTER target
        b f11
sub:    mov.u32 {r11, r13}, {r62, r63}
        mov.u32 {r9}, {1}
        b r63:r62                               ; return
        .org 0x01001000
        mov.u32 {r17}, {0x20}
        bne.u32 r0, 0, .+r17                    ; misaligned but not taken
        mov.u32 {r20}, {0x7fc00000}
        beq.f32 r20, r20, f12                   ; NaN == NaN is false
        bne.f32 r20, r20, ok4                   ; NaN != NaN is true
        b f13
ok4:    blt.f32 r20, 0, f14
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
