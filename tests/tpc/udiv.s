// Integer division the way tpc-clang -march=gaudi lowers it (tpc_llvm
// CodeGen udiv/urem CHECK-GAUDI lines): clear the quotient half of a Z pair,
// copy the dividend into the remainder half, then udiv_4step from step
// 8E-1 down in groups of four (tpc.md §5.5.6).  Expected values by hand:
// 1000000007 = 12345 * 81004 + 5627; 60000 = 7 * 8571 + 3; 250 = 9 * 27 + 7;
// -1000 = 7 * -142 - 6 (C truncation, signs as the compiler re-applies them);
// x / 0 gives an all-ones quotient and keeps x as the remainder.
//@ srf 0=1000000007 1=12345 4=77 5=0 8=60000 11=7 12=250 13=9 16=0xFFFFFC18 17=7
//@ srf 22=5 23=6
//@ expect S2=5627 S3=81004 S6=77 S7=0xFFFFFFFF S24=3 S25=8571 S26=7 S27=27
//@ expect S19=0xFFFFFF72 S18=0xFFFFFFFA S22=5 S23=6
nop; mov.u32 S3, 0x0; nop; nop
nop; mov.u32 S2, S0; nop; nop
nop; udiv_4step.u32 0x1f Z2, S1; nop; nop
nop
nop
nop
nop
nop
nop
nop; udiv_4step.u32 0x1b Z2, S1; nop; nop
nop; udiv_4step.u32 0x17 Z2, S1; nop; nop
nop; udiv_4step.u32 0x13 Z2, S1; nop; nop
nop; udiv_4step.u32 0xf Z2, S1; nop; nop
nop; udiv_4step.u32 0xb Z2, S1; nop; nop
nop; udiv_4step.u32 0x7 Z2, S1; nop; nop
nop; udiv_4step.u32 0x3 Z2, S1; nop; nop
// 77 / 0
nop; mov.u32 S7, 0x0; nop; nop
nop; mov.u32 S6, S4; nop; nop
nop; udiv_4step.u32 0x1f Z6, S5; nop; nop
nop; udiv_4step.u32 0x1b Z6, S5; nop; nop
nop; udiv_4step.u32 0x17 Z6, S5; nop; nop
nop; udiv_4step.u32 0x13 Z6, S5; nop; nop
nop; udiv_4step.u32 0xf Z6, S5; nop; nop
nop; udiv_4step.u32 0xb Z6, S5; nop; nop
nop; udiv_4step.u32 0x7 Z6, S5; nop; nop
nop; udiv_4step.u32 0x3 Z6, S5; nop; nop
// u16: 60000 / 7, u8: 250 / 9
nop; mov.u32 S25, 0x0; nop; nop
nop; mov.u32 S24, S8; nop; nop
nop; udiv_4step.u16 0xf Z24, S11; nop; nop
nop; udiv_4step.u16 0xb Z24, S11; nop; nop
nop; udiv_4step.u16 0x7 Z24, S11; nop; nop
nop; udiv_4step.u16 0x3 Z24, S11; nop; nop
nop; mov.u32 S27, 0x0; nop; nop
nop; mov.u32 S26, S12; nop; nop
nop; udiv_4step.u8 0x7 Z26, S13; nop; nop
nop; udiv_4step.u8 0x3 Z26, S13; nop; nop
// signed i32: -1000 / 7 on the magnitudes, then the signs
nop; xor.i32 S14, S16, S17; nop; nop
nop; abs.i32 S15, S16; nop; nop
nop; abs.i32 S20, S17; nop; nop
nop; mov.u32 S19, 0x0; nop; nop
nop; mov.u32 S18, S15; nop; nop
nop; udiv_4step.u32 0x1f Z18, S20; nop; nop
nop; udiv_4step.u32 0x1b Z18, S20; nop; nop
nop; udiv_4step.u32 0x17 Z18, S20; nop; nop
nop; udiv_4step.u32 0x13 Z18, S20; nop; nop
nop; udiv_4step.u32 0xf Z18, S20; nop; nop
nop; udiv_4step.u32 0xb Z18, S20; nop; nop
nop; udiv_4step.u32 0x7 Z18, S20; nop; nop
nop; udiv_4step.u32 0x3 Z18, S20; nop; nop
nop; cmp_less.i32 SP1, S14, 0x0; nop; nop
nop; cmp_less.i32 SP2, S16, 0x0; nop; nop
nop; mov.i32 S21, 0x0; nop; nop
nop; sub.i32 S19, S21, S19, SP1; nop; nop
nop; sub.i32 S18, S21, S18, SP2; nop; nop
// predicated off: Z22 keeps its income
nop; udiv_4step.u32 0x1f Z22, S1, SP3; nop; nop
halt
nop
nop
nop
