// Fast-path review (tpc-fastreview): the mirror of fast-fault-st.s.  The
// load at c0 = 0 of tensor 0 (i32, base 0x3FFFF80) straddles the end of
// HBM: lane 32 is at 0x4000000, GLOBAL_FAULT (8) with that PA at PC 0x80.
// Before it, a fast load of tensor 2 (V2) and a general one of tensor 0 at
// c0 = -32 (lanes 0..31 padding, 32..63 the last HBM bytes) ran.  In the
// faulting bundle a fast st_tnsr of V4 to tensor 2 and the quick IRF add
// and add.f32 have no effect (I2, V3 and tensor 2's memory unchanged).
//@ tensor 0 0x3FFFF80 2 128
//@ tensor 2 0x200000 2 64
//@ mem 0x200000 i32 5 6 7
//@ expect fault 8 0x80 0x4000000
//@ expect mem 0x200000 i32 5 6 7 0
//@ expect V2.i32[0]=5 V2.i32[2]=7 V2.i32[3]=0 V3.i32[*]=0 V1.i32[*]=0
//@ expect I2=0,0,0,0,0 I3=0,0,0,0,0 S5=0
nop; nop; mov.i32 V4, 0x9; nop
ld_tnsr V2, 0x2, I2; nop; nop; nop
nop; set_indx I3, b00001, 0xFFFFFFE0; nop; nop
ld_tnsr V5, 0x0, I3; add.i32 b00001 I3, 0x20, I3; nop; nop
ld_tnsr V1, 0x0, I2; add.i32 b00001 I2, 0x40, I2; add.f32 V3, V4, V4; st_tnsr 0x2, I2, V4
halt
nop
nop
nop
