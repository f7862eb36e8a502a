// bf16: out[x, y] = a*b + a, rounded to bf16 (RNE) after the multiply and
// again after the add (tpc.md §5.0.4).  Tensors 0, 1 inputs, 2 output, all
// bf16 (E = 2, 128 lanes).  Index space: dim 0 counts 128-lane vectors along
// tensor dim 0, dim 1 counts rows.
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
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; mul.bf16 V3, V1, V2; nop
nop; nop; add.bf16 V3, V3, V1; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
