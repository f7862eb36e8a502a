// 5-D element-wise add: out[x,y,z,w,v] = (a + b) + S0 (f32, one rounding per
// operation; S0 is the first scalar argument).  Tensors 0, 1 inputs, 2 output.
// Index space: dim 0 counts 64-lane vectors along tensor dim 0, dims 1..4 are
// the tensor's dims 1..4.  The partition is I0 (base) / I1 (size).  Lanes past
// the end of dim 0 are padding on load (a = b = 0) and culled on store, so a
// missing cull writes S0 next to the row (the test checks a guard area).
// Dims 0..3 use hardware loops (depth 4 is the maximum, tpc.md §6.3); dim 4 is
// a software loop with CMP + JMPR (§6.2).  Iterators: dim 3 = S32, dim 2 =
// S33, dim 1 = S34, dim 0 = S35 (S32 + nesting depth).
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; mov_irf_dim 0x2 S14, I0; nop; nop
nop; mov_irf_dim 0x2 S15, I1; nop; nop
nop; mov_irf_dim 0x3 S16, I0; nop; nop
nop; mov_irf_dim 0x3 S17, I1; nop; nop
nop; mov_irf_dim 0x4 S18, I0; nop; nop
nop; mov_irf_dim 0x4 S19, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
nop; add.i32 S15, S15, S14; nop; nop
nop; add.i32 S17, S17, S16; nop; nop
nop; add.i32 S19, S19, S18; nop; nop
nop; mov.i32 S20, S18; nop; nop
Dim4:
nop; cmp_geq.i32 SP1, S20, S19; nop; nop
nop; jmpr Done, SP1; nop; nop
nop; set_indx I2, b10000, S20; nop; nop
loop S16, S17, 1, <, End3
nop
nop; set_indx I2, b01000, S32; nop; nop
loop S14, S15, 1, <, End2
nop
nop; set_indx I2, b00100, S33; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S34; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S21, S35, 0x40; nop; nop
nop; set_indx I2, b00001, S21; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; add.f32 V3, V1, V2; nop
nop; nop; add.f32 V3, V3, S0; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
nop
End2:
nop
End3:
nop; add.i32 S20, S20, 0x1; nop; nop
nop; jmpr Dim4; nop; nop
Done:
halt
nop
nop
nop
