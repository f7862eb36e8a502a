// Fast-path review (tpc-fastreview): read-before-write of the registers a
// quick or direct slot reads besides its vector sources (tpc.md §6.1):
// predicates, IRF coordinates and scalar operands written by the SPU in the
// same bundle.  T0 = 1.0s at 0x200000 (two vectors), T1 the destination.
//  b1: SPU sets SP1 (was 0) while LD/VPU/ST are predicated on SP1: none of
//      them runs (V1, V2 stay 0, T1 vector 0 stays -1).
//  b2: SPU clears SP1 (now 1) while the others use SP1: all run (V3 = 1.0,
//      V4 = 2.0 + 2.0, T1 vector 0 = V9 = 9.0).
//  b3: SPU steps I3 by 64 while LD and ST use I3: both use the old I3
//      (vector 0): V5 = 1.0s and T1 vector 0 = V4 = 4.0; I3 = (64, ..).
//  b4: SPU S1 += 1 (S1 = 2.0f bits + 1) while VPU mul.f32 V6 = V3 * S1:
//      the old S1 = 2.0, V6 = 2.0.
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x201000 2 128
//@ srf 1=0x40000000
//@ mem 0x200000 f32 1.0 1.0
//@ mem 0x2000FC f32 1.0 1.0
//@ mem 0x201000 f32 -1.0
//@ expect V1.f32[*]=0.0 V2.f32[*]=0.0 V3.f32[0]=1.0 V3.f32[1]=1.0 V4.f32[*]=4.0
//@ expect V5.f32[0]=1.0 V5.f32[63]=1.0 V6.f32[0]=2.0 V6.f32[1]=2.0 V6.f32[2]=0.0
//@ expect SP1=0 I3=64,0,0,0,0 S1=0x40000001
//@ expect mem 0x201000 f32 4.0 4.0
//@ expect mem 0x2010FC f32 4.0 0.0
nop; nop; mov.f32 V9, 0x41100000; nop
nop; nop; mov.f32 V8, 0x40000000; nop
ld_tnsr V1, 0x0, I2, SP1; cmp_eq.i32 SP1, S0, S0; add.f32 V2, V8, V8, SP1; st_tnsr 0x1, I2, V9, SP1
ld_tnsr V3, 0x0, I2, SP1; cmp_eq.i32 SP1, S0, S1; add.f32 V4, V8, V8, SP1; st_tnsr 0x1, I2, V9, SP1
ld_tnsr V5, 0x0, I3; add.i32 b00001 I3, 0x40, I3; nop; st_tnsr 0x1, I3, V4
nop; add.i32 S1, S1, 0x1; mul.f32 V6, V3, S1; nop
halt
nop
nop
nop
