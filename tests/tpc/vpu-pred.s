// VPU predication (tpc.md §1.1, §5.0.1, §9 items 2-4): lane i of size E
// follows VPRF bit i*E; disabled lanes keep income; !VP inverts; CMP writes
// E bits per lane; MOV VP <- SP fills all bits; writes to VP0 are ignored.
//@ srf 1=0xAAAAAAAA
//@ expect VP1.b[0]=1 VP1.b[11]=1 VP1.b[12]=0
//@ expect V3.i32[0]=1 V3.i32[2]=1 V3.i32[3]=5 V3.i32[63]=5
//@ expect V4.i32[0]=5 V4.i32[3]=1
//@ expect V5.i32[*]=5 V6.u8[0]=5 V6.u8[1]=1 V6.u8[255]=1
//@ expect VP3.b[0]=1 VP3.b[255]=1 VP0.b[7]=1
nop; nop; mov.i32 V3, 0x5; nop
nop; nop; mov.i32 V4, 0x5; nop
nop; nop; mov.i32 V5, 0x5; nop
nop; nop; mov.i8 V6, 0x5; nop
nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x3; nop
nop; nop; mov VP2, S1; nop
nop; nop; mov.i32 V3, 0x1, VP1; nop
nop; nop; mov.i32 V4, 0x1, !VP1; nop
nop; nop; mov.i32 V5, 0x1, VP2; nop
nop; nop; mov.i8 V6, 0x1, VP2; nop
nop; cmp_eq.i32 SP4, S0, S0; nop; nop
nop; nop; mov VP3, SP4; nop
nop; nop; cmp_eq.i32 VP0, V3, V4; nop
halt
nop
nop
nop
