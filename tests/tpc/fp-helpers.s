// EXTRACT_EXP, FORM_FP_NUM and NEARBYINT (tpc.md §5.5.5).  By hand:
// exponent of 8.0 = 3 (biased 130), of 0.75 = -1, of bf16 8.0 = 3;
// form_fp_num(exp of 1.0, sign of -3.0, mantissa of 1.5) = -1.5;
// exp_is_num 126 with sign of 2.0 and mantissa of 1.75 = 0.875 (force_sign1:
// -0.875); exp_add_bias exp_is_num 2 -> 2^2 = 4.0; sign_lsb of 1 -> negative;
// nearbyint 2.5: rhne 2, rhaz 3, ru 3, rd 2, rz 2; -2.5: rd -3, rz -2;
// ROUND_CSR 0 (rhne) for the default; bf16 1.5 -> 2.0; 7.9 rz -> 7.
//@ srf 0=0x41000000 1=0x3F400000 2=0x4100 3=0x40200000 4=0xC0200000 5=0x40FCCCCD
//@ expect S10=3 S11=130 S12=0xFFFFFFFF S13=3
//@ expect V1.u32[*]=0xBFC00000 V2.u32[*]=0x3F600000 V3.u32[*]=0xBF600000 V4.u32[*]=0x40800000
//@ expect V5.u32[*]=0xC0800000
//@ expect S14=0x40000000 S15=0x40400000 S16=0x40400000 S17=0x40000000 S18=0x40000000
//@ expect S19=0xC0400000 S20=0xC0000000 S21=0x40000000 V6.u16[*]=0x4000 S22=0x40E00000
nop; extract_exp.f32 S10, S0; nop; nop
nop; extract_exp.f32 biased S11, S0; nop; nop
nop; extract_exp.f32 S12, S1; nop; nop
nop; extract_exp.bf16 S13, S2; nop; nop
nop; nop; mov.f32 V10, 0x3F800000; nop
nop; nop; mov.f32 V11, 0xC0400000; nop
nop; nop; mov.f32 V12, 0x3FC00000; nop
nop; nop; form_fp_num.f32 V1, V10, V11, V12; nop
nop; nop; mov.f32 V13, 0x40000000; nop
nop; nop; mov.f32 V14, 0x3FE00000; nop
nop; nop; form_fp_num.f32 exp_is_num V2, 0x7e, V13, V14; nop
nop; nop; form_fp_num.f32 force_sign1 exp_is_num V3, 0x7e, V13, V14; nop
nop; nop; mov.i32 V15, 0x0; nop
nop; nop; form_fp_num.f32 exp_add_bias exp_is_num V4, 0x2, V15, V15; nop
nop; nop; mov.i32 V16, 0x1; nop
nop; nop; form_fp_num.f32 exp_add_bias exp_is_num sign_lsb V5, 0x2, V16, V15; nop
nop; nearbyint.f32 rhne S14, S3; nop; nop
nop; nearbyint.f32 rhaz S15, S3; nop; nop
nop; nearbyint.f32 ru S16, S3; nop; nop
nop; nearbyint.f32 rd S17, S3; nop; nop
nop; nearbyint.f32 rz S18, S3; nop; nop
nop; nearbyint.f32 rd S19, S4; nop; nop
nop; nearbyint.f32 rz S20, S4; nop; nop
nop; nearbyint.f32 S21, S3; nop; nop
nop; nop; nearbyint.bf16 V6, 0x3FC0; nop
nop; nearbyint.f32 rz S22, S5; nop; nop
halt
nop
nop
nop
