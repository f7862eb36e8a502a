// Each TPC i stores tensor 0's first vector plus 1 into eight 64-element
// i32 vectors of tensor 1, walking up from vector i, one a trip: TPCs i
// and i+1 both write vectors i+1 .. i+7, six of them in the trips after
// the first two (where loop plans and compiled bodies hoist the spans).
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mul.i32 S20, S10, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
nop; set_indx I3, b00001, 0x0; nop; nop
ld_tnsr V1, 0x0, I3; nop; nop; nop
loop 0x0, 0x8, 1, <, End
nop
nop; nop; add.i32 V2, V1, 0x1; nop
nop; add.i32 b00001 I2, 0x40, I2; nop; st_tnsr 0x1, I2, V2
End:
halt
nop
nop
nop
