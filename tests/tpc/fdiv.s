// f32 division built as kernels build it (tpc.md §5.5): a reciprocal estimate
// from the divisor's exponent (extract_exp, form_fp_num), one Newton step
// with mac, the product, then calc_fp_special(fclass(a), fclass(b), div)
// patching the IEEE special lanes and leaving the others alone.  Divisors of
// the ordinary lanes are powers of two, so each step is exact and the
// expected quotients follow by hand: 6/2 = 3, -10/4 = -2.5, 3/0.5 = 6;
// specials: 5/0 = +Inf, -5/0 = -Inf, 0/0 = NaN, Inf/3 = +Inf, 7/Inf = +0,
// NaN/2 = NaN, -0/2 = -0; lanes 10..63 are 0/0.
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ mem 0x200000 u32 0x40C00000 0xC1200000 0x40400000 0x40A00000 0xC0A00000 0 0x7F800000 0x40E00000 0x7FC00000 0x80000000
//@ mem 0x201000 u32 0x40000000 0x40800000 0x3F000000 0 0 0 0x40400000 0x7F800000 0x40000000 0x40000000
//@ expect V13.u32[0]=0x40400000 V13.u32[1]=0xC0200000 V13.u32[2]=0x40C00000
//@ expect V13.u32[3]=0x7F800000 V13.u32[4]=0xFF800000 V13.u32[5]=0x7FC00000
//@ expect V13.u32[6]=0x7F800000 V13.u32[7]=0 V13.u32[8]=0x7FC00000 V13.u32[9]=0x80000000
//@ expect V13.u32[63]=0x7FC00000
//@ expect V14.u32[0]=0x40 V14.u32[3]=0x40 V14.u32[5]=0x10 V14.u32[6]=0x80 V14.u32[8]=0x200 V14.u32[9]=0x8
//@ expect V15.u32[1]=0x40 V15.u32[3]=0x10 V15.u32[7]=0x80
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; mov.i32 V21, 0x0; nop
nop; nop; extract_exp.f32 V10, V2; nop
nop; nop; sub.i32 V20, V21, V10; nop
nop; nop; form_fp_num.f32 exp_add_bias exp_is_num V11, V20, V2, V21; nop
nop; nop; mov.f32 V22, 0x40000000; nop
nop; nop; mac.f32 neg V22, V2, V11; nop
nop; nop; mul.f32 V12, V11, V22; nop
nop; nop; mul.f32 V13, V1, V12; nop
nop; nop; fclass.f32 V14, V1; nop
nop; nop; fclass.f32 V15, V2; nop
nop; nop; calc_fp_special.f32 func=div V13, V14, V15; nop
halt
nop
nop
nop
