// Each TPC i, S0 times: stores tensor 0's vector i plus the trip number as
// vector i of tensor 1, then loads vector i + 1 of tensor 1 (which TPC
// i + 1 stores) and stores it as vector 4 + i: what it copies depends on
// how far TPC i + 1 got.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x40; nop; nop
nop; add.i32 S21, S20, 0x40; nop; nop
nop; add.i32 S22, S20, 0x100; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
nop; set_indx I4, b00001, S22; nop; nop
nop; mov.i32 S11, 0x0; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
loop S11, S0, 1, <, End
nop
nop; nop; add.i32 V2, V1, S32; nop
nop; nop; nop; st_tnsr 0x1, I2, V2
ld_tnsr V3, 0x1, I3; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I4, V3
End:
halt
nop
nop
nop
