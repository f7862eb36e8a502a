// Spills through SLM and VLM: out[x, y] = (a < b ? a + b : b) * S0 (f32).
// S0 is saved to the last SLM word and S0 is cleared; a is stored to VLM in
// two halves (st_l_v_low / st_l_v_high at unrelated addresses), b as a full
// vector at the last 256 bytes of the 80 KiB VLM, the predicate a < b as a
// 32-byte VPRF image; V1, V2, VP1 are then clobbered and everything is
// reloaded (tpc.md §2, §5.1, §5.4).  Tensors 0, 1 inputs, 2 output; index
// space as add-f32: dim 0 = 64-lane vectors, dim 1 = rows.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
nop; nop; nop; st_l 0x3fc, S0
nop; mov.i32 S0, 0x0; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; cmp_less.f32 VP1, V1, V2; st_l_v_low 0x1000, V1
nop; nop; nop; st_l_v_high 0x2080, V1
nop; nop; nop; st_l_v 0x13f00, V2
nop; nop; nop; st_l_v 0x200, VP1
nop; nop; mov.i32 V1, 0x0; nop
nop; nop; mov.i32 V2, 0x0; nop
nop; nop; cmp_eq.i32 VP1, V1, V1; nop
ld_l S7, 0x3fc; nop; nop; nop
ld_l_v_high V5, 0x2080; nop; nop; nop
ld_l_v_low V5, 0x1000; nop; nop; nop
ld_l_v V6, 0x13f00; nop; nop; nop
ld_l_v VP3, 0x200; nop; nop; nop
nop; nop; mov.i32 V7, V6; nop
nop; nop; add.f32 V7, V5, V6, VP3; nop
nop; nop; mul.f32 V7, V7, S7; nop
nop; nop; nop; st_tnsr 0x2, I2, V7
End0:
nop
End1:
halt
nop
nop
nop
