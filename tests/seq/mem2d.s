; TensorLoad / TensorStore (sequencer.md §8.9; checklist items 3, 4, 7, 9):
; width extension, NaN payloads, u64 register pairs, negative strides, the
; 2-D walk order (i1 outer), a walk ending at a window's last word, store
; truncation, immediate stores, and several elements on one address.
        .data
        .org 0x02000000
        .byte 0x80, 0x80, 0x00, 0x80, 0x00, 0x80, 0x00, 0x00
        .quad 0xff00887766554433                ; 0x02000008
        .word 0x7fc00001                        ; 0x02000010: NaN with payload
        .org 0x02000020
        .word 0x100, 0x101, 0x102, 0x103, 0x104
        .org 0x01fffff8
        .word 0xaaaa0001, 0xaaaa0002            ; last two words of window 1
        .text
        .org 0x01000000
        tld.i8 {r1}, [0x02000000], shape=(1,1), step=(0,0)
        bne.u32 r1, 0xffffff80, f1
        tld.u8 {r2}, [0x02000001], shape=(1,1), step=(0,0)
        bne.u32 r2, 0x80, f2
        tld.i16 {r3}, [0x02000002], shape=(1,1), step=(0,0)
        bne.u32 r3, 0xffff8000, f3
        tld.u16 {r4}, [0x02000004], shape=(1,1), step=(0,0)
        bne.u32 r4, 0x8000, f4
        tld.u64 {r6}, [0x02000008], shape=(1,1), step=(0,0)
        bne.u32 r6, 0x66554433, f5              ; low half in the even register
        bne.u32 r7, 0xff008877, f6
        tld.f32 {r8}, [0x02000010], shape=(1,1), step=(0,0)
        bne.u32 r8, 0x7fc00001, f7
        ; start 0x02000030, n0 = 4, s0 = -1: words 0x30, 0x2c, 0x28, 0x24
        tld.u32 {r10, r11, r12, r13}, [0x02000030], shape=(4,1), step=(-1,0)
        bne.u32 r10, 0x104, f8
        bne.u32 r11, 0x103, f9
        bne.u32 r12, 0x102, f10
        bne.u32 r13, 0x101, f11
        ; n0 = 2 (step 2), n1 = 2 (step 1): words 0, 2, 1, 3 in that order
        tld.u32 {r14, r15, r16, r17}, [0x02000020], shape=(2,2), step=(2,1)
        bne.u32 r14, 0x100, f12
        bne.u32 r15, 0x102, f13
        bne.u32 r16, 0x101, f14
        bne.u32 r17, 0x103, f15
        ; a register-pair start, and a walk ending at the window's last byte
        mov.u32 {r18, r19}, {0x01fffff8, 0}
        tld.u32 {r20, r21}, [r19:r18], shape=(2,1), step=(1,0)
        bne.u32 r21, 0xaaaa0002, f16
        ; stores truncate: u8 of 0x12345678 writes 0x78 only
        mov.u32 {r22}, {0x12345678}
        tst.u8 [0x02000100], {r22}, shape=(1,1), step=(0,0)
        tld.u32 {r23}, [0x02000100], shape=(1,1), step=(0,0)
        bne.u32 r23, 0x78, f17
        ; immediate u16 store with stride 2: 0x110, 0x114, 0x118
        tst.u16 [0x02000110], #{0x1111, 0x2222, 0x3333}, shape=(3,1), step=(2,0)
        tld.u32 {r24, r25, r26}, [0x02000110], shape=(3,1), step=(1,0)
        bne.u32 r24, 0x1111, f18
        bne.u32 r25, 0x2222, f19
        bne.u32 r26, 0x3333, f20
        ; u64 store from the pair r6 (low) / r7 (high), read back as words
        tst.u64 [0x02000120], {r6}, shape=(1,1), step=(0,0)
        tld.u32 {r27, r28}, [0x02000120], shape=(2,1), step=(1,0)
        bne.u32 r27, 0x66554433, f21
        bne.u32 r28, 0xff008877, f22
        ; step 0: two elements at one address, the last in walk order wins
        tst.u32 [0x02000130], #{1, 2}, shape=(2,1), step=(0,0)
        tld.u32 {r29}, [0x02000130], shape=(1,1), step=(0,0)
        bne.u32 r29, 2, f23
        ; a repeated load destination keeps the last value
        tld.u32 {r30, r30}, [0x02000020], shape=(2,1), step=(1,0)
        bne.u32 r30, 0x101, f24
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
