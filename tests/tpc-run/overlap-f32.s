// Each TPC copies one 64-element f32 vector from tensor 0 to tensor 1 at
// element 63 * i (i: its dim-0 index): TPCs i and i+1 both write element
// 63 * (i + 1).
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x3f; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
halt
nop
nop
nop
