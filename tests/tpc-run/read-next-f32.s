// TPC i writes vector i of tensor 1 and reads vector i + 1 of it, which
// TPC i + 1 writes: a read of another TPC's output in the same launch.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x40; nop; nop
nop; add.i32 S21, S20, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
ld_tnsr V2, 0x1, I3; nop; nop; nop
halt
nop
nop
nop
