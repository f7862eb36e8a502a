// LOW/HIGH tensor access (tpc.md §3.3: the register half is selected, memory
// starts at the addressed element for both): every 128-element i16 block
// [x, x+128) of a row is loaded as low = a[x..x+63] (at I2) and high =
// a[x+64..x+127] (at I3), then stored swapped: the high half at I2, the low
// half at I3, so out[x+k] = a[x+64+k] and out[x+64+k] = a[x+k].  Past the
// row's end, loads give padding (0) and stores are culled.  Tensor 0 input,
// tensor 1 output; index space: dim 0 = 128-element blocks, dim 1 = rows.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
nop; set_indx I3, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x80; nop; nop
nop; add.i32 S21, S20, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
ld_tnsr_low V1, 0x0, I2; nop; nop; nop
ld_tnsr_high V1, 0x0, I3; nop; nop; nop
nop; nop; nop; st_tnsr_high 0x1, I2, V1
nop; nop; nop; st_tnsr_low 0x1, I3, V1
End0:
nop
End1:
halt
nop
nop
nop
