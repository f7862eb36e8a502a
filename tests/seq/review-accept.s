; Records the spec declares valid that an over-strict decoder might reject
; (each would fault with INVALID_INSTRUCTION if refused; every effect is
; checked):
;  - MOVE immediate mode whose (unused, validated) source slot equals the
;    destination: ctrl_mv_dst_not_src applies to register mode only (§8.6)
;  - debug_cmd 1, 3, 5, 7, 9 with debug_hint 0xff (§2.1)
;  - a 64-bit ALU op whose destination pair is the source pair swapped
;    (dst_lo = src0_hi, dst_hi = src0_lo): only dst_lo != dst_hi is required
;  - a wait and an update sharing V with different meanings (§4.4):
;    wait(sem1 >= R3) with R3 = 0, post(sem2 += 3)
;  - DMA with compute NONE and an FP8 dtype code (NONE allows any 0..0xF),
;    source and destination shapes differing (4 x 1 byte -> 1 x 4 bytes)
;  - drain 0 (§8.3: 0 and 1 both mean a full drain)
        .data
        .org 0x02000000
        .byte 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
start:  .rec a7 10 00 00 00 00 00 00 00 00 00 00 01 09 01 00 07 00 00 00 00 00 00 00 07 00 00 00 00 00 00 00 77 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        bne.u32 r7, 0x77, f1
        .rec a4 10 01 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        .rec a4 10 03 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        .rec a4 10 05 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        .rec a4 10 07 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        .rec a4 10 09 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        mov.u32 {r10, r11}, {0xffffffff, 5}
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 04 01 01 00 0a 0b 00 00 0b 0a 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        bne.u32 r11, 0, f2                      ; low word: (5:0xffffffff + 1) lo = 0
        bne.u32 r10, 6, f3                      ; high word
        nop wait(sem1 >= r3) post(sem2 += 3)
        tld.u32 {r12}, [0x2802701008], shape=(1,1), step=(0,0)
        bne.u32 r12, 3, f4
        dma src=[0x02000000] sshape=(4,1) sstep=(1,0) sesz=1 dst=[0x2000000000] dshape=(1,1) dstep=(0,0) desz=4 sem=9 inc=1 dt=fp8e4
        drain 0
        tld.u32 {r13}, [0x2000000000], shape=(1,1), step=(0,0)
        bne.u32 r13, 0x44332211, f5
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
