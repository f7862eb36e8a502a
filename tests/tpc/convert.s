// CONVERT (tpc.md §5.3.1): f32 -> bf16 single lane with lane_sel, bf16 ->
// f32 into a pair, f32 -> int32 rz and rhne, int32 -> i8 saturating.
//@ srf 1=0x3FC00000 2=0xC0200000 3=1000
//@ expect V3.u16[0]=0 V3.u16[1]=0x3FC0 V3.u16[127]=0x3FC0
//@ expect V4.i32[*]=-2 V5.i32[*]=-2 V6.f32[*]=0 V7.f32[*]=1.5
//@ expect V8.u8[0]=127 V8.u8[1]=0
nop; nop; mov.f32 V1, S1; nop
nop; nop; mov.f32 V2, S2; nop
nop; nop; mov.i32 V9, S3; nop
nop; nop; convert.f32 lane_sel=1 target_type=bf16 V3, V1; nop
nop; nop; convert.f32 target_type=int32 rz V4, V2; nop
nop; nop; convert.f32 target_type=int32 rhne V5, V2; nop
nop; nop; convert.bf16 all_lanes target_type=fp32 D6, V3; nop
nop; nop; convert.i32 target_type=int8 V8, V9; nop
halt
nop
nop
nop
