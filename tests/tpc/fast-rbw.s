// Fast-path review (tpc-fastreview): read-before-write inside a bundle with
// the quick executors (tpc.md §6.1: every slot reads its sources before any
// slot writes; commit order LD, SPU, VPU, ST, the later slot wins).  V1 =
// 1.0 at first; memory A (tensor 0) holds 10, 11, 12, 13, 0... in vector 0
// and 5, 6, 0... in vector 1; tensor 1 (B) receives the stores, one vector
// per bundle (B is pre-filled with -1.0 = 0xBF800000 to see what is
// written).
// (the index registers are set first; b1.. below count from the mov.)
//  b1: ld_tnsr V1 <- A0 while st_tnsr stores V1: B0 = old V1 = 1.0.
//  b2: add.f32 V1 = V1 + V1 while st_tnsr stores V1: B1 = 10, 11...;
//      V1 = 20, 22, 24, 26.
//  b3: ld_tnsr V1 <- A1, mul.f32 V1 = V1 * V1 and st_tnsr V1 (all three on
//      V1; a conflict, the VPU wins): B2 = 20, 22..; V1 = 400, 484, 576, 676.
//  b4: ld_tnsr V2 <- A1, sub.f32 V3 = V1 - V2 (old V2 = 0), st_tnsr V2
//      (old V2 = 0): B3 = 0; V2 = 5, 6; V3 = V1.
//  b5: add.f32 V2 = V2 + 1.0 (immediate) and st_tnsr V2 in a bundle whose
//      LD loads V4 <- A0: B4 = 5, 6, 0; V2 = 6, 7, 1; V4 = A0.
//  b6: st_tnsr of V2 into B5 after the swap-commit of b5: 6, 7, 1.
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x201000 2 512
//@ mem 0x200000 f32 10.0 11.0 12.0 13.0
//@ mem 0x200100 f32 5.0 6.0
//@ mem 0x201000 f32 -1.0 -1.0
//@ mem 0x201100 f32 -1.0 -1.0
//@ mem 0x201200 f32 -1.0 -1.0
//@ mem 0x201300 f32 -1.0 -1.0
//@ mem 0x201400 f32 -1.0 -1.0
//@ mem 0x2014FC f32 -1.0 -1.0
//@ expect mem 0x201000 f32 1.0 1.0
//@ expect mem 0x2010FC f32 1.0
//@ expect mem 0x201100 f32 10.0 11.0 12.0 13.0 0.0
//@ expect mem 0x201200 f32 20.0 22.0 24.0 26.0 0.0
//@ expect mem 0x201300 f32 0.0 0.0 0.0
//@ expect mem 0x201400 f32 5.0 6.0 0.0
//@ expect mem 0x201500 f32 6.0 7.0 1.0
//@ expect mem 0x2015FC f32 1.0
//@ expect V1.f32[0]=400.0 V1.f32[1]=484.0 V1.f32[2]=576.0 V1.f32[3]=676.0 V1.f32[4]=0.0
//@ expect V3.f32[0]=400.0 V3.f32[3]=676.0 V3.f32[63]=0.0
//@ expect V2.f32[0]=6.0 V2.f32[1]=7.0 V2.f32[2]=1.0 V2.f32[63]=1.0
//@ expect V4.f32[0]=10.0 V4.f32[3]=13.0 V4.f32[4]=0.0
nop; set_indx I3, b00001, 0x40; nop; nop
nop; set_indx I4, b00001, 0x80; nop; nop
nop; set_indx I5, b00001, 0xC0; nop; nop
nop; set_indx I6, b00001, 0x100; nop; nop
nop; set_indx I7, b00001, 0x140; nop; nop
nop; nop; mov.f32 V1, 0x3f800000; nop
ld_tnsr V1, 0x0, I2; nop; nop; st_tnsr 0x1, I2, V1
nop; nop; add.f32 V1, V1, V1; st_tnsr 0x1, I3, V1
ld_tnsr V1, 0x0, I3; nop; mul.f32 V1, V1, V1; st_tnsr 0x1, I4, V1
ld_tnsr V2, 0x0, I3; nop; sub.f32 V3, V1, V2; st_tnsr 0x1, I5, V2
ld_tnsr V4, 0x0, I2; nop; add.f32 V2, V2, 0x3f800000; st_tnsr 0x1, I6, V2
nop; nop; nop; st_tnsr 0x1, I7, V2
halt
nop
nop
nop
