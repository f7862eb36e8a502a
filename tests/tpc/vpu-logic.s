// VPU bitwise ops and logical shifts (tpc.md §5.3): AND/OR/XOR/NOT on the
// raw lanes, SHR/SHL by the low byte of B, counts >= 8E give 0.
//@ srf 1=0xF0F0F0F0 2=0x0FF00FF0 3=8 4=16
//@ expect V3.u32[*]=0x00F000F0 V4.u32[*]=0xFFF0FFF0 V5.u32[*]=0xFF00FF00
//@ expect V6.u32[*]=0x0F0F0F0F V7.u32[*]=0x00F0F0F0 V8.u8[*]=0 V9.u16[*]=0
//@ expect V10.u32[0]=0 V10.u32[1]=2 V10.u32[63]=126
nop; nop; mov.u32 V1, S1; nop
nop; nop; mov.u32 V2, S2; nop
nop; nop; and.u32 V3, V1, V2; nop
nop; nop; or.u32 V4, V1, V2; nop
nop; nop; xor.u32 V5, V1, V2; nop
nop; nop; not.u32 V6, V1; nop
nop; nop; shr.u32 V7, V1, S3; nop
nop; nop; shl.u8 V8, V1, S3; nop
nop; nop; shr.u16 V9, V1, S4; nop
nop; nop; shl.i32 V10, V_LANE_ID_32, 0x1; nop
halt
nop
nop
nop
