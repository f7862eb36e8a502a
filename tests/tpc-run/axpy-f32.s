// out[x, y] = a[x, y] * S0 + b[x, y] (f32; S0 = first scalar argument, one
// rounding after the multiply and one after the add).  Tensors 0, 1 inputs,
// 2 output; index space as in add-f32.s (dim 0: 64-element vectors, dim 1:
// rows), iterated from I0 over I1.
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
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; mul.f32 V3, V1, S0; nop
nop; nop; add.f32 V3, V3, V2; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
