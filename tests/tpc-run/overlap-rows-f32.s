// Each TPC copies rows 256 i + 256 down to 256 i of tensor 0 into tensor 1
// (i: its dim-0 index; 64 f32 a row), highest row first, so that its race
// log has 514 accesses out of address order: TPCs i and i+1 both write row
// 256 (i + 1), the first row TPC i stores and the last TPC i+1 stores.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S11, S10, 0x100; nop; nop
nop; add.i32 S12, S11, 0x100; nop; nop
loop 0x0, 0x101, 1, <, End0
nop
nop; sub.i32 S20, S12, S32; nop; nop
nop; set_indx I2, b00010, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
End0:
nop
halt
nop
nop
nop
