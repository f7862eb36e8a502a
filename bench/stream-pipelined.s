// S1 passes of out[x, y] = a[x, y] + S0, software-pipelined the way the
// TPC compiler schedules a stream loop: per 64-lane vector, one bundle with
// ld_tnsr, the index step, add.f32 and st_tnsr (each working on a different
// vector), plus one bundle moving the store index.  Needs >= 2 vectors per row.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
nop; mul.i32 S10, S10, 0x40; nop; nop
nop; mul.i32 S11, S11, 0x40; nop; nop
nop; add.i32 S14, S10, 0x40; nop; nop
nop; sub.i32 S15, S11, 0x40; nop; nop
loop 0x0, S1, 1, <, End2
nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S33; nop; nop
nop; set_indx I2, b00001, S10; nop; nop
nop; set_indx I3, b00010, S33; nop; nop
ld_tnsr V1, 0x0, I2; add.i32 b00001 I2, 0x40, I2; nop; set_indx I3, b00001, S10
ld_tnsr V1, 0x0, I2; add.i32 b00001 I2, 0x40, I2; add.f32 V2, V1, S0; nop
loop S14, S15, 0x40, <, End0
nop
ld_tnsr V1, 0x0, I2; add.i32 b00001 I2, 0x40, I2; add.f32 V2, V1, S0; st_tnsr 0x1, I3, V2
set_indx I3, b00001, S34; nop; nop; nop
End0:
nop; nop; add.f32 V2, V1, S0; st_tnsr 0x1, I3, V2
nop; add.i32 b00001 I3, 0x40, I3; nop; nop
nop; nop; nop; st_tnsr 0x1, I3, V2
End1:
nop
End2:
halt
nop
nop
nop
