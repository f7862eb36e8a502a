// The four-slot bundle of tpc.md §4.5 (a): every slot reads its sources
// before any slot writes (§6.1): LD_TNSR uses the old I2 while the SPU
// advances it, the VPU adds the old V1 (0), the store writes V4.
//@ tensor 2 0x200000 2 128
//@ tensor 3 0x201000 2 64
//@ mem 0x200000 f32 1.0 2.0
//@ mem 0x200100 f32 100.0
//@ expect V1.f32[0]=1.0 V1.f32[1]=2.0 V3.f32[*]=0.5 I2=64,0,0,0,0
//@ expect V5.f32[0]=100.0
//@ expect mem 0x201000 f32 3.0 3.0
nop; cmp_eq.i32 SP1, S0, S0; mov.f32 V2, 0x3f000000; nop
nop; nop; mov.f32 V4, 0x40400000; nop
ld_tnsr V1, 0x2, I2, SP1; add.i32 b00001 I2, 0x40, I2; add.f32 V3, V1, V2, !VP5; st_tnsr 0x3, I3, V4, SP1
ld_tnsr V5, 0x2, I2; nop; nop; nop
halt
nop
nop
nop
