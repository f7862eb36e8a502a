// 8-bit lanes under a vector predicate: out = max(a, b) per u8 element,
// built as VP1 = (a > b) (one bit per byte, §1.1), V2 = b, then a
// predicated `mov.u8 V2, V1, VP1` copies a only into the lanes where VP1 is
// set (§5.0.1: disabled lanes keep their income).  256 lanes per vector.
// Tensors 0, 1 inputs, 2 output; index space: dim 0 = 256-element vectors,
// dim 1 = rows.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x100; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; cmp_grt.u8 VP1, V1, V2; nop
nop; nop; mov.u8 V2, V1, VP1; nop
nop; nop; nop; st_tnsr 0x2, I2, V2
End0:
nop
End1:
halt
nop
nop
nop
