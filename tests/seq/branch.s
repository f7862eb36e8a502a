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
f1:     write.u32 [0x2805000000], 0x00013333
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
f3:     write.u32 [0x2805000000], 0x00033333
        halt
f4:     write.u32 [0x2805000000], 0x00043333
        halt
f5:     write.u32 [0x2805000000], 0x00053333
        halt
f6:     write.u32 [0x2805000000], 0x00063333
        halt
f7:     write.u32 [0x2805000000], 0x00073333
        halt
f8:     write.u32 [0x2805000000], 0x00083333
        halt
f9:     write.u32 [0x2805000000], 0x00093333
        halt
f10:    write.u32 [0x2805000000], 0x000a3333
        halt
f11:    write.u32 [0x2805000000], 0x000b3333
        halt
f12:    write.u32 [0x2805000000], 0x000c3333
        halt
f13:    write.u32 [0x2805000000], 0x000d3333
        halt
f14:    write.u32 [0x2805000000], 0x000e3333
        halt
