// Fast-path review (tpc-fastreview): precise faults with the quick
// executors (tpc.md §6.1, §6.6, §10 item 10).  Tensor 1 (i32, 128 elements)
// starts 0x180 bytes before the end of the 64 MiB HBM.  The first store at
// c0 = 0 is wholly in HBM (the fast path; it also caches the HBM span); the
// second, at c0 = 64, has lanes 0..31 in HBM and lane 32 at 0x4000000, not
// memory: GLOBAL_FAULT (8) with that PA, at the bundle's PC 0xC0.  The
// faulting bundle also holds a fast ld_tnsr into V1, the quick IRF add into
// I2 and the quick add.f32 into V3: none of them takes effect, and the 32
// in-HBM lanes of the store are not written either.
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x3FFFE80 2 128
//@ mem 0x200000 i32 5 6 7
//@ mem 0x3FFFF80 i32 -1 -1
//@ mem 0x3FFFFF8 i32 -1 -1
//@ expect fault 8 0xC0 0x4000000
//@ expect mem 0x3FFFE80 i32 9 9
//@ expect mem 0x3FFFF7C i32 9 -1 -1
//@ expect mem 0x3FFFFF8 i32 -1 -1
//@ expect V1.i32[*]=3 V3.i32[*]=0 V4.i32[*]=9
//@ expect I2=0,0,0,0,0 I3=64,0,0,0,0
nop; set_indx I3, b00001, 0x40; nop; nop
nop; nop; mov.i32 V1, 0x3; nop
nop; nop; mov.i32 V4, 0x9; nop
nop; nop; nop; st_tnsr 0x1, I2, V4
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; mov.i32 V1, 0x3; nop
ld_tnsr V1, 0x0, I2; add.i32 b00001 I2, 0x40, I2; add.f32 V3, V4, V4; st_tnsr 0x1, I3, V4
halt
nop
nop
nop
