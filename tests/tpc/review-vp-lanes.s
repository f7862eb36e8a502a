// Review of tpc.md §9 item 3 for E = 2 and the E = 1 / E = 4 cases the
// other tests leave out (§1.1: a VPU lane i of size E is enabled by VPRF bit
// i*E; disabled lanes keep their value).  VP1 = 0x33333333 in all sections:
// bit b set iff b % 4 < 2.
//   i16 (bit 2i):  lane i enabled iff i even
//   i8  (bit i):   lane i enabled iff i % 4 < 2
//   i32 (bit 4i):  every lane enabled
// VP2 = 0x55555555 (even bits): every i16 lane enabled, i8 lane i iff even.
//@ srf 1=0x33333333 2=0x55555555
//@ expect V1.u16[0]=9 V1.u16[1]=1 V1.u16[2]=9 V1.u16[127]=1
//@ expect V2.u8[0]=9 V2.u8[1]=9 V2.u8[2]=1 V2.u8[3]=1 V2.u8[4]=9 V2.u8[255]=1
//@ expect V3.u32[*]=9 V4.u16[*]=9
//@ expect V5.u8[0]=9 V5.u8[1]=1 V5.u8[254]=9 V5.u8[255]=1
nop; nop; mov.i16 V1, 0x1; nop
nop; nop; mov.i8 V2, 0x1; nop
nop; nop; mov.i32 V3, 0x1; nop
nop; nop; mov.i16 V4, 0x1; nop
nop; nop; mov.i8 V5, 0x1; nop
nop; nop; mov VP1, S1; nop
nop; nop; mov VP2, S2; nop
nop; nop; mov.i16 V1, 0x9, VP1; nop
nop; nop; mov.i8 V2, 0x9, VP1; nop
nop; nop; mov.i32 V3, 0x9, VP1; nop
nop; nop; mov.i16 V4, 0x9, VP2; nop
nop; nop; mov.i8 V5, 0x9, VP2; nop
halt
nop
nop
nop
