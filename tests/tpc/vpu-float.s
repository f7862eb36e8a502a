// VPU float rules (tpc.md §5.0.4, machine.md §12.13): RNE, canonical NaN for
// arithmetic, bit copies for ABS/MOV/SEL, MAX with NaN is NaN, -0 < +0,
// f32 MAC fused, bf16 rounded once.
//@ srf 1=0x3F800000 2=0x33800000 3=0x7F800000 4=0xFF800000 5=0x7FC01234 6=0x80000000
//@ srf 7=0x3F80 8=0x3B80 9=0xFFC01234
//@ expect V10.u32[*]=0x3F800000 V11.u32[*]=0x7FC00000 V12.u32[*]=0x7FC01234
//@ expect V13.u32[*]=0x7FC00000 V14.u32[*]=0 V15.u32[*]=0x80000000
//@ expect V16.u32[*]=0x7FC01234 V17.u16[*]=0x3F80 V18.u32[*]=0x7FC01234
nop; nop; mov.f32 V1, S1; nop
nop; nop; mov.f32 V3, S3; nop
nop; nop; mov.f32 V5, S5; nop
nop; nop; mov.f32 V6, S6; nop
nop; nop; mov.bf16 V7, S7; nop
nop; nop; add.f32 V10, V1, S2; nop
nop; nop; add.f32 V11, V3, S4; nop
nop; nop; mov.f32 V12, V5; nop
nop; nop; max.f32 V13, V1, V5; nop
nop; nop; max.f32 V14, V6, 0x0; nop
nop; nop; min.f32 V15, V6, 0x0; nop
nop; nop; abs.f32 V16, V5; nop
nop; nop; add.bf16 V17, V7, S8; nop
nop; nop; sel_grt.f32 V18, V1, 0x0, V5, V6; nop
halt
nop
nop
nop
