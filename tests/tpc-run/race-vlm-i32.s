// Each TPC i, S0 times: adds vector i + 1 of tensor 1 (which TPC i + 1
// stores) to an accumulator in VLM, then stores tensor 0's vector i plus
// the trip number as vector i of tensor 1; at the end it stores the
// accumulator as vector 4 + i.  What it adds depends on how far TPC i + 1
// got, and a stretch rolled back must find the accumulator as it was at
// the stretch's start.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x40; nop; nop
nop; add.i32 S21, S20, 0x40; nop; nop
nop; add.i32 S22, S20, 0x100; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
nop; set_indx I4, b00001, S22; nop; nop
nop; mov.i32 S11, 0x0; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; sub.i32 V4, V1, V1; nop
nop; nop; nop; st_l_v 0x0, V4
loop S11, S0, 1, <, End
nop
ld_tnsr V3, 0x1, I3; nop; nop; nop
ld_l_v V4, 0x0; nop; nop; nop
nop; nop; add.i32 V4, V4, V3; nop
nop; nop; add.i32 V2, V1, S32; nop
nop; nop; nop; st_tnsr 0x1, I2, V2
nop; nop; nop; st_l_v 0x0, V4
End:
ld_l_v V4, 0x0; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I4, V4
halt
nop
nop
nop
