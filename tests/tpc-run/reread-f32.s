// Each TPC reads row 0 of tensor 0 (64 f32) 65536 times from one PC, so
// that its race log holds 65536 equal accesses, then stores it to row i of
// tensor 1 (i: its dim-0 index).
nop; mov_irf_dim 0x0 S10, I0; nop; nop
loop 0x0, 0x10000, 1, <, End0
nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
End0:
nop
nop; set_indx I2, b00010, S10; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
halt
nop
nop
nop
