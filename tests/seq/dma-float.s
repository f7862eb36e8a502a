; DMA compute on narrow floats (sequencer.md §8.11, machine.md §12.13):
; computed in f32, rounded once to nearest even, canonical NaNs, subnormals
; kept, MAX/MIN NaN and signed-zero rules.  Expected bit patterns by hand:
;   f16 add: 1.0 + 2.0 = 3.0 (0x4200); 65504 + 65504 -> +inf (0x7c00);
;            +inf + -inf -> 0x7e00; 0x0001 + 0x0001 = 0x0002 (subnormal)
;   bf16 add: 1.0 + 2^-8 is a tie between 1.0 and 1 + 2^-7 -> even: 0x3f80
;   bf16 max: max(1.0, NaN) = 1.0; min(+0, -0) = -0 (0x8000)
        .data
        .org 0x02000000
        .byte 0x00, 0x3c, 0xff, 0x7b, 0x00, 0x7c, 0x01, 0x00   ; f16 source
        .org 0x02000010
        .byte 0x00, 0x40, 0xff, 0x7b, 0x00, 0xfc, 0x01, 0x00   ; f16 destination (preset)
        .org 0x02000020
        .byte 0x80, 0x3b, 0xc1, 0x7f, 0x00, 0x80, 0x00, 0x00   ; bf16 source
        .org 0x02000030
        .byte 0x80, 0x3f, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x00   ; bf16 destination (preset)
        .text
        .org 0x01000000
        dma src=[0x02000000] sshape=(4,1) sstep=(1,0) sesz=2 dst=[0x02000010] dshape=(4,1) dstep=(1,0) desz=2 sem=1 inc=1 op=add dt=f16
        dma src=[0x02000020] sshape=(1,1) sstep=(0,0) sesz=2 dst=[0x02000030] dshape=(1,1) dstep=(0,0) desz=2 sem=1 inc=1 op=add dt=bf16
        dma src=[0x02000022] sshape=(1,1) sstep=(0,0) sesz=2 dst=[0x02000032] dshape=(1,1) dstep=(0,0) desz=2 sem=1 inc=1 op=max dt=bf16
        dma src=[0x02000024] sshape=(1,1) sstep=(0,0) sesz=2 dst=[0x02000034] dshape=(1,1) dstep=(0,0) desz=2 sem=1 inc=1 op=min dt=bf16
        nop wait(sem1 >= 4)
        tld.u16 {r1, r2, r3, r4}, [0x02000010], shape=(4,1), step=(1,0)
        bne.u32 r1, 0x4200, f1
        bne.u32 r2, 0x7c00, f2
        bne.u32 r3, 0x7e00, f3
        bne.u32 r4, 0x0002, f4
        tld.u16 {r5, r6, r7}, [0x02000030], shape=(3,1), step=(1,0)
        bne.u32 r5, 0x3f80, f5
        bne.u32 r6, 0x3f80, f6
        bne.u32 r7, 0x8000, f7
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
