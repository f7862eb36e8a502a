// LD_L_V, LD_L_V_LOW, LD_L_V_HIGH (seed: v_*_ld_l_v*_b/_vb): 256 bytes,
// or 128 bytes into register bytes 0..127 / 128..255 with the other half
// kept (tpc.md §5.1); a VPRF predicate gates bytes (§10 item 6).
//@ srf 1=0x100 4=0x000000FF
//@ expect V2.i32[5]=5 V2.i32[63]=63
//@ expect V3.i32[0]=0 V3.i32[31]=31 V3.i32[32]=7 V3.i32[63]=7
//@ expect V4.i32[0]=7 V4.i32[31]=7 V4.i32[32]=0 V4.i32[63]=31
//@ expect V5.u8[0]=0 V5.u8[4]=1 V5.u8[7]=0 V5.u8[8]=9 V5.u8[32]=8 V5.u8[252]=9 V5.u8[255]=0
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; nop; st_l_v S1, V1
nop; nop; mov.i32 V3, 0x7; nop
nop; nop; mov.i32 V4, 0x7; nop
nop; nop; mov.i32 V5, 0x9; nop
nop; nop; mov VP2, S4; nop
ld_l_v V2, S1; nop; nop; nop
ld_l_v_low V3, S1; nop; nop; nop
ld_l_v_high V4, S1; nop; nop; nop
ld_l_v V5, S1, VP2; nop; nop; nop
halt
nop
nop
nop
