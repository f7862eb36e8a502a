// Fast-path review (tpc-fastreview): MUL/ADD/SUB.f32 of the quick executors
// (V,V / V,S / V,imm under a scalar predicate) and of the general path (the
// same forms under an all-true VPRF predicate) against a scalar reference
// computed independently (IEEE binary32 RNE, tpc.md §5.0.4): NaN results
// canonical 0x7FC00000 whatever the input NaN (sNaN 0x7F800001, negative
// payload 0xFFC12345), inf - inf, 0 * inf, denormals kept (1 + 1 ulp,
// 2^-126 * 0.5), ties to even (1 + 2^-24 = 1), overflow to inf, signed
// zeros (-0 + -0 = -0, x - x = +0, 0 * -2 = -0), SUB `neg` = b - a.
// Lanes 12..63 are 0 op 0 (the scalar -2.0 gives -0 for MUL).
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ srf 1=0xC0000000
//@ mem 0x200000 u32 0x7f800000 0x0 0x7f800001 0xffc12345 0x1 0x3f800000 0x3f800000 0xff7fffff 0x80000000 0x3f800000 0x800000 0x80000001
//@ mem 0x201000 u32 0xff800000 0x7f800000 0x3f800000 0x40000000 0x1 0x33800000 0x34400000 0x41200000 0x80000000 0x3f800000 0x3f000000 0x1
//@ expect V3.u32[0]=0x7fc00000 V3.u32[1]=0x7f800000 V3.u32[2]=0x7fc00000 V3.u32[3]=0x7fc00000 V3.u32[4]=0x2
//@ expect V3.u32[5]=0x3f800000 V3.u32[6]=0x3f800002 V3.u32[7]=0xff7fffff V3.u32[8]=0x80000000 V3.u32[9]=0x40000000
//@ expect V3.u32[10]=0x3f000000 V3.u32[11]=0x0 V3.u32[63]=0x0
//@ expect V4.u32[0]=0x7f800000 V4.u32[1]=0xff800000 V4.u32[2]=0x7fc00000 V4.u32[3]=0x7fc00000 V4.u32[4]=0x0
//@ expect V4.u32[5]=0x3f7fffff V4.u32[6]=0x3f7ffffd V4.u32[7]=0xff7fffff V4.u32[8]=0x0 V4.u32[9]=0x0
//@ expect V4.u32[10]=0xbf000000 V4.u32[11]=0x80000002 V4.u32[63]=0x0
//@ expect V5.u32[0]=0xff800000 V5.u32[1]=0x7f800000 V5.u32[2]=0x7fc00000 V5.u32[3]=0x7fc00000 V5.u32[4]=0x0
//@ expect V5.u32[5]=0xbf7fffff V5.u32[6]=0xbf7ffffd V5.u32[7]=0x7f7fffff V5.u32[8]=0x0 V5.u32[9]=0x0
//@ expect V5.u32[10]=0x3f000000 V5.u32[11]=0x2 V5.u32[63]=0x0
//@ expect V6.u32[0]=0xff800000 V6.u32[1]=0x7fc00000 V6.u32[2]=0x7fc00000 V6.u32[3]=0x7fc00000 V6.u32[4]=0x0
//@ expect V6.u32[5]=0x33800000 V6.u32[6]=0x34400000 V6.u32[7]=0xff800000 V6.u32[8]=0x0 V6.u32[9]=0x3f800000
//@ expect V6.u32[10]=0x400000 V6.u32[11]=0x80000000 V6.u32[63]=0x0
//@ expect V7.u32[0]=0xff800000 V7.u32[1]=0x80000000 V7.u32[2]=0x7fc00000 V7.u32[3]=0x7fc00000 V7.u32[4]=0x80000002
//@ expect V7.u32[5]=0xc0000000 V7.u32[6]=0xc0000000 V7.u32[7]=0x7f800000 V7.u32[8]=0x0 V7.u32[9]=0xc0000000
//@ expect V7.u32[10]=0x81000000 V7.u32[11]=0x2 V7.u32[63]=0x80000000
//@ expect V8.u32[0]=0xff800000 V8.u32[1]=0x7fc00000 V8.u32[2]=0x7fc00000 V8.u32[3]=0x7fc00000 V8.u32[4]=0x0
//@ expect V8.u32[5]=0x33800000 V8.u32[6]=0x34400000 V8.u32[7]=0xff800000 V8.u32[8]=0x0 V8.u32[9]=0x3f800000
//@ expect V8.u32[10]=0x400000 V8.u32[11]=0x80000000 V8.u32[63]=0x0
//@ expect V9.u32[0]=0xff800000 V9.u32[1]=0x80000000 V9.u32[2]=0x7fc00000 V9.u32[3]=0x7fc00000 V9.u32[4]=0x80000002
//@ expect V9.u32[5]=0xc0000000 V9.u32[6]=0xc0000000 V9.u32[7]=0x7f800000 V9.u32[8]=0x0 V9.u32[9]=0xc0000000
//@ expect V9.u32[10]=0x81000000 V9.u32[11]=0x2 V9.u32[63]=0x80000000
//@ expect V10.u32[0]=0x7f800000 V10.u32[1]=0xc0000000 V10.u32[2]=0x7fc00000 V10.u32[3]=0x7fc00000 V10.u32[4]=0xc0000000
//@ expect V10.u32[5]=0xbf800000 V10.u32[6]=0xbf800000 V10.u32[7]=0xff7fffff V10.u32[8]=0xc0000000 V10.u32[9]=0xbf800000
//@ expect V10.u32[10]=0xc0000000 V10.u32[11]=0xc0000000 V10.u32[63]=0xc0000000
//@ expect V11.u32[0]=0xff800000 V11.u32[1]=0x7f800000 V11.u32[2]=0x7fc00000 V11.u32[3]=0x7fc00000 V11.u32[4]=0x0
//@ expect V11.u32[5]=0xbf7fffff V11.u32[6]=0xbf7ffffd V11.u32[7]=0x7f7fffff V11.u32[8]=0x0 V11.u32[9]=0x0
//@ expect V11.u32[10]=0x3f000000 V11.u32[11]=0x2 V11.u32[63]=0x0
//@ expect V12.u32[0]=0x7f800000 V12.u32[1]=0xc0000000 V12.u32[2]=0x7fc00000 V12.u32[3]=0x7fc00000 V12.u32[4]=0xc0000000
//@ expect V12.u32[5]=0xbf800000 V12.u32[6]=0xbf800000 V12.u32[7]=0xff7fffff V12.u32[8]=0xc0000000 V12.u32[9]=0xbf800000
//@ expect V12.u32[10]=0xc0000000 V12.u32[11]=0xc0000000 V12.u32[63]=0xc0000000
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; cmp_eq.i32 VP1, V0, V0; nop
nop; nop; add.f32 V3, V1, V2; nop
nop; nop; sub.f32 V4, V1, V2; nop
nop; nop; sub.f32 neg V5, V1, V2; nop
nop; nop; mul.f32 V6, V1, V2; nop
nop; nop; mul.f32 V7, V1, S1; nop
nop; nop; mul.f32 V8, V1, V2, VP1; nop
nop; nop; mul.f32 V9, V1, S1, VP1; nop
nop; nop; add.f32 V10, V1, 0xc0000000; nop
nop; nop; sub.f32 neg V11, V1, V2, VP1; nop
nop; nop; add.f32 V12, V1, 0xc0000000, VP1; nop
halt
nop
nop
nop
