// FCLASS class masks (tpc.md §5.5.1; bit 0 -Inf .. 9 qNaN) in both slots and
// both float types, and CALC_FP_SPECIAL's IEEE special results from those
// masks (tpc.md §5.5.2), scalar: an ordinary class keeps the income.
//@ srf 0=0xFF800000 1=0xBF800000 2=0x80000001 3=0x80000000 4=0 5=1 6=0x3F800000
//@ srf 7=0x7F800000 8=0x7F800001 9=0x7FC00000 10=0xFFC0 11=0x7F81 12=1 13=0x12345678
//@ expect S14=1 S15=2 S16=4 S17=8 S18=0x10 S19=0x20 S20=0x40 S21=0x80 S22=0x100 S23=0x200
//@ expect S24=0x200 S25=0x100 S26=0x20
//@ expect V1.u32[*]=0x4 V2.u16[*]=0x100
//@ expect S27=0xFF800000 S28=0x7FC00000 S29=0x7F800000 S30=0xFF800000 S31=0
//@ expect S13=0x12345678 S32=0xBF800000 S33=0x3F800000 S34=0xFF80
nop; fclass.f32 S14, S0; nop; nop
nop; fclass.f32 S15, S1; nop; nop
nop; fclass.f32 S16, S2; nop; nop
nop; fclass.f32 S17, S3; nop; nop
nop; fclass.f32 S18, S4; nop; nop
nop; fclass.f32 S19, S5; nop; nop
nop; fclass.f32 S20, S6; nop; nop
nop; fclass.f32 S21, S7; nop; nop
nop; fclass.f32 S22, S8; nop; nop
nop; fclass.f32 S23, S9; nop; nop
nop; fclass.bf16 S24, S10; nop; nop
nop; fclass.bf16 S25, S11; nop; nop
nop; fclass.bf16 S26, S12; nop; nop
nop; nop; fclass.f32 V1, S2; nop
nop; nop; fclass.bf16 V2, S11; nop
// recip(-0) = -Inf; rsqrt(-1) = NaN; sqrt(+Inf) = +Inf; log(+0) = -Inf; exp(-Inf) = +0
nop; calc_fp_special.f32 func=recip S27, S17, S17; nop; nop
nop; calc_fp_special.f32 func=rsqrt S28, S15, S15; nop; nop
nop; calc_fp_special.f32 func=sqrt S29, S21, S21; nop; nop
nop; calc_fp_special.f32 func=log S30, S18, S18; nop; nop
nop; mov.i32 S31, 0x7; nop; nop
nop; calc_fp_special.f32 func=exp S31, S14, S14; nop; nop
// recip(1.0) is ordinary: S13 keeps its value; tanh(-Inf) = -1; pow(1.0, +0) = 1
nop; calc_fp_special.f32 func=recip S13, S20, S20; nop; nop
nop; calc_fp_special.f32 func=tanh S32, S14, S14; nop; nop
nop; calc_fp_special.f32 func=pow S33, S20, S18; nop; nop
// bf16 div: +Inf / -normal = -Inf
nop; calc_fp_special.bf16 func=div S34, S21, S15; nop; nop
halt
nop
nop
nop
