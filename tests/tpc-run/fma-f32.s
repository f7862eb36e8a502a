// out[x, y] = a[x, y] * S0 + b[x, y] with mac.f32 (fused: one rounding; S0 =
// the first scalar argument).  Opcode 0 of the VPU is MAC, the same code as
// the load slot's gen_addr: nxemu-tpc-run must not read V11 (B) as naming
// tensor 11.  V11 = S0 in every lane.
// Tensors 0, 1 inputs, 2 output; index space as in add-f32.s (dim 0:
// 64-element vectors, dim 1: rows), iterated from I0 over I1.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
nop; nop; mov.f32 V11, S0; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; mac.f32 V2, V1, V11; nop
nop; nop; nop; st_tnsr 0x2, I2, V2
End0:
nop
End1:
halt
nop
nop
nop
