// Reduction: out[x] = sum over y of in[x, y] (f32, accumulated in order
// y = 0, 1, ..., H-1 with one rounding per add).  Tensor 0 is the W x H input,
// tensor 1 the W-element output.  Index space: dim 0 counts 64-lane vectors
// along W only; every TPC sums all H rows of its columns.  H is read from
// tensor 0's DIM_1_SIZE through the kernel's CFG view (ld_l mmio, tpc.md §2.1:
// 0x400 + 0x38*0 + 0x10 + 8*1 = 0x418).  Iterators: S32 = vector, S33 = row.
ld_l mmio S5, 0x418; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S32, 0x40; nop; nop
nop; nop; mov.i32 V4, 0x0; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, S20; nop; nop
loop 0x0, S5, 1, <, End1
nop
nop; set_indx I2, b00010, S33; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.f32 V4, V4, V1; nop
End1:
nop; nop; nop; st_tnsr 0x1, I3, V4
End0:
halt
nop
nop
nop
