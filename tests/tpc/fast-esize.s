// Fast-path review (tpc-fastreview): element sizes 1 and 2, strides other
// than 1, negative strides and an empty dim 0 (tpc.md §3.1-§3.4, §10 item
// 4), each next to the neighbouring fast (whole, contiguous, in-bounds)
// case.
//  - T0 E=1, 256 elements: c0 = 0 is the whole tensor (V1 = 1, 2, 3 ..
//    0x44 in lane 255); c0 = 1: lanes 0..254 = elements 1..255, lane 255
//    padding 0x7B; loaded again under !SP1 (SP1 = 0: true) into V9.
//  - T1 E=2, 128 elements: c0 = 0 -> 10, 11 .. 0x99; c0 = 1 -> lanes
//    0..126 = elements 1..127, lane 127 padding 0xBEEF.
//  - T2 E=2, stride0 = 2, 256 elements: lane j at byte 4j -> 20, 22.
//  - T3 E=4, size 64 x 4, stride1 = -64: c = (0,1) -> base - 256 (77, 78),
//    c = (0,3) -> base - 768 (55).
//  - T4 E=4, DIM_0_SIZE = 0: every lane padding 5.
//  - stores: V1 at c0 = 1 of T5 (E=1, 256 elements at 0x205000): elements
//    1..255 = V1 lanes 0..254, lane 255 culled (0x205100 keeps 0xEE);
//    V3 at c0 = 0 of T2 (stride 2): 0x202000 u16 = 10 21 11 23.
//@ tensor 0 0x200000 0 256 pad=0x7B7B7B7B
//@ tensor 1 0x201000 1 128 pad=0xBEEFBEEF
//@ cfg 0x470=0x202000 0x474=0 0x478=0 0x47C=0x101 0x480=256 0x484=2
//@ cfg 0x4A8=0x203300 0x4AC=0 0x4B0=0 0x4B4=0x302 0x4B8=64 0x4BC=1 0x4C0=4 0x4C4=0xFFFFFFC0
//@ tensor 4 0x204000 2 0 pad=5
//@ tensor 5 0x205000 0 256
//@ mem 0x200000 u8 1 2 3
//@ mem 0x2000FF u8 0x44
//@ mem 0x201000 u16 10 11
//@ mem 0x2010FE u16 0x99
//@ mem 0x202000 u16 20 21 22 23
//@ mem 0x203200 i32 77 78
//@ mem 0x203000 i32 55
//@ mem 0x205100 u8 0xEE
//@ expect V1.u8[0]=1 V1.u8[2]=3 V1.u8[3]=0 V1.u8[255]=0x44
//@ expect V2.u8[0]=2 V2.u8[1]=3 V2.u8[254]=0x44 V2.u8[255]=0x7B
//@ expect V9.u8[0]=1 V9.u8[2]=3 V9.u8[255]=0x44
//@ expect V3.u16[0]=10 V3.u16[1]=11 V3.u16[2]=0 V3.u16[127]=0x99
//@ expect V4.u16[0]=11 V4.u16[126]=0x99 V4.u16[127]=0xBEEF
//@ expect V5.u16[0]=20 V5.u16[1]=22 V5.u16[2]=0
//@ expect V6.i32[0]=77 V6.i32[1]=78 V6.i32[2]=0 V7.i32[0]=55 V7.i32[1]=0
//@ expect V8.i32[*]=5
//@ expect mem 0x205000 u8 0 1 2 3 0
//@ expect mem 0x2050FF u8 0 0xEE
//@ expect mem 0x202000 u16 10 21 11 23 0
nop; set_indx I3, b00001, 0x1; nop; nop
nop; set_indx I4, b00010, 0x1; nop; nop
nop; set_indx I5, b00010, 0x3; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I3; nop; nop; nop
ld_tnsr V9, 0x0, I2, !SP1; nop; nop; nop
ld_tnsr V3, 0x1, I2; nop; nop; nop
ld_tnsr V4, 0x1, I3; nop; nop; nop
ld_tnsr V5, 0x2, I2; nop; nop; nop
ld_tnsr V6, 0x3, I4; nop; nop; nop
ld_tnsr V7, 0x3, I5; nop; nop; nop
ld_tnsr V8, 0x4, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x5, I3, V1
nop; nop; nop; st_tnsr 0x2, I2, V3
halt
nop
nop
nop
