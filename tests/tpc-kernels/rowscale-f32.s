// Per-row scale read through GEN_ADDR + LD_G: out[x, y] = a[x, y] * s[y]
// (f32).  For each row, AD0 = address of element y of tensor 1 (§5.1
// GEN_ADDR) and `ld_g V5, AD0` broadcasts that one f32 to all 64 lanes
// (§5.1 LD_G, E = 4 from tensor 1).  Tensor 0 = a (W x H), tensor 1 = s (H),
// tensor 2 = out.  Index space: dim 0 = 64-lane vectors, dim 1 = rows.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
nop; set_indx I3, b00001, S32; nop; nop
gen_addr AD0, 0x1, I3; nop; nop; nop
ld_g V5, AD0; nop; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; mul.f32 V3, V1, V5; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
