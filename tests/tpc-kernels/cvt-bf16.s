// bf16 through f32: out[k] = bf16_rhne(f32(a[k]) * S0).  Each 128-lane bf16
// vector is widened into the pair D6 = {V6, V7} (element 2i -> V6 lane i,
// element 2i+1 -> V7 lane i, tpc.md §1.2, §5.3.1), both halves are scaled in
// f32 and narrowed back from the pair with all_lanes and explicit rhne.
// Tensor 0 input, tensor 1 output, both bf16.  Index space: dim 0 counts
// 128-lane vectors along tensor dim 0, dim 1 counts rows.
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
nop; mul.i32 S20, S33, 0x80; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; convert.bf16 all_lanes target_type=fp32 D6, V1; nop
nop; nop; mul.f32 V6, V6, S0; nop
nop; nop; mul.f32 V7, V7, S0; nop
nop; nop; convert.f32 all_lanes target_type=bf16 rhne V3, D6; nop
nop; nop; nop; st_tnsr 0x1, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
