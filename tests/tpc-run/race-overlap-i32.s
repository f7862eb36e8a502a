// Each TPC stores, S0 times, one 64-element i32 vector at element 63 * i
// of tensor 1 (i: its dim-0 index): tensor 0's elements there plus the
// trip number plus i.  TPCs i and i+1 both store element 63 * (i + 1), in
// every trip: which value stays there depends on the order of the stores.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x3f; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; mov.i32 S11, 0x0; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
loop S11, S0, 1, <, End
nop
nop; nop; add.i32 V2, V1, S32; nop
nop; nop; add.i32 V3, V2, S10; nop
nop; nop; nop; st_tnsr 0x1, I2, V3
End:
halt
nop
nop
nop
