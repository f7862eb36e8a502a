// A 1-in/1-out TPC kernel (docs/tpc-run.rst): out[x, y] = 2 * in[x, y] for
// f32 tensors of rank <= 2.  Tensor 0 is the input, tensor 1 the output.
// Index space: dim 0 counts 64-element vectors along dim 0 of the tensors
// (a 256-element row is 4 points), dim 1 counts rows.  The partition is I0
// (base) / I1 (size); lanes past the end of a row are padding on load and
// culled on store, so any row length works.
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
nop; nop; add.f32 V3, V1, V1; nop
nop; nop; nop; st_tnsr 0x1, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
