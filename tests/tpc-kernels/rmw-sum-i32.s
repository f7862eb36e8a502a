// Reduction across TPCs with read-modify-write stores: out[x] += in[x, y] for
// every row y of this TPC's partition (i32, wrapping; S29 = dt i32 (2) | op
// add (0) << 4, tpc.md §5.4.1).  Tensor 0 is the W x H input, tensor 1 the
// W-element output (rank 1: dim 1 of I2 is outside its valid dims and so
// ignored, §3.2).  Index space: dim 0 = 64-lane vectors, dim 1 = rows; the
// TPCs split the rows, and integer addition makes the result independent of
// the split and of the order in which the TPCs run.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
nop; mov.i32 S29, 0x2; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1, S29
End0:
nop
End1:
halt
nop
nop
nop
