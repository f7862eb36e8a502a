// out[r] = in[r] + bias[r & 1] for the rows r of the TPC's dim-0 partition
// (64 f32 a row; tensor 0 in, 1 bias (2 rows), 2 out), 256 times over:
// each TPC reads the same two bias rows alternately, 512 times each a pass, so
// its race log holds the same accesses many times over.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
loop 0x0, 0x100, 1, <, End1
nop
loop S10, S11, 1, <, End0
nop
nop; set_indx I2, b00010, S33; nop; nop
nop; and.i32 S21, S33, 0x1; nop; nop
nop; set_indx I3, b00010, S21; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I3; nop; nop; nop
nop; nop; add.f32 V3, V1, V2; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
nop
halt
nop
nop
nop
