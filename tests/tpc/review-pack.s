// Review of tpc.md §9 item 24 for the PACK / UNPACK forms the unit test
// leaves out (§5.3.4):
//  - pack.i8 group 0, stride 4, A = V_LANE_ID_8 (byte k = k): per dual
//    group q, elements 0, 4, .., 60 -> bytes 64q .. 64q+15 of Vd; the rest
//    of Vd keeps 0xEE.
//  - unpack.i16 group 1, stride 2, A lane k = k - 64: per dual group q
//    (32 lanes), A lanes 32q+16+i -> Vd lane 32q+2i, Vd lane 32q+2i+1 =
//    sign bits (0xFFFF for negatives, 0 otherwise);
//  - unpack.u16 the same with zeros instead of sign bits.
//@ srf 1=0xEE
//@ expect V2.u8[0]=0 V2.u8[1]=4 V2.u8[15]=60 V2.u8[16]=0xEE V2.u8[63]=0xEE
//@ expect V2.u8[64]=64 V2.u8[65]=68 V2.u8[207]=252 V2.u8[208]=0xEE V2.u8[255]=0xEE
//@ expect V3.u16[0]=0xFFD0 V3.u16[1]=0xFFFF V3.u16[30]=0xFFDF V3.u16[31]=0xFFFF
//@ expect V3.u16[64]=16 V3.u16[65]=0 V3.u16[94]=31 V3.u16[95]=0
//@ expect V5.u16[0]=0xFFD0 V5.u16[1]=0 V5.u16[31]=0 V5.u16[64]=16 V5.u16[65]=0
nop; nop; mov.i8 V2, S1; nop
nop; nop; mov.i8 V1, V_LANE_ID_8; nop
nop; nop; mov.i16 V4, V_LANE_ID_16; nop
nop; nop; sub.i16 V4, V4, 0x40; nop
nop; nop; pack.i8 source_group=0 element_stride=4 V2, V1; nop
nop; nop; unpack.i16 source_group=1 element_stride=2 group_half=0 V3, V4; nop
nop; nop; unpack.u16 source_group=1 element_stride=2 group_half=0 V5, V4; nop
halt
nop
nop
nop
