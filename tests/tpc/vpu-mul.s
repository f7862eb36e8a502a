// VPU MUL/MAC forms (tpc.md §1.2, §5.3): f32 MUL, MAC neg (d - a*b),
// u16 products into a pair (even/odd interleave), u32 {low, high} pair,
// i32 double_and_round32 = sat32((2ab + 2^31) >> 32); compares by
// signedness.
//@ srf 1=0x40400000 2=0xC0000000 3=0x3F800000 4=300 5=0x40000000 6=0xFFFFFFFF
//@ expect V10.f32[*]=-6.0 V11.f32[*]=7.0
//@ expect V12.u32[*]=90000 V13.u32[*]=90000
//@ expect V14.u32[*]=0x20000000 V16.u32[*]=1 V17.u32[*]=0xFFFFFFFE
//@ expect VP1.b[0]=1 VP1.b[255]=1 VP2.b[0]=0
nop; nop; mov.f32 V1, S1; nop
nop; nop; mov.f32 V2, S2; nop
nop; nop; mov.f32 V11, S3; nop
nop; nop; mov.u16 V3, S4; nop
nop; nop; mov.i32 V4, S5; nop
nop; nop; mov.u32 V5, S6; nop
nop; nop; mul.f32 V10, V1, V2; nop
nop; nop; mac.f32 neg V11, V1, V2; nop
nop; nop; mul.u16 D12, V3, V3; nop
nop; nop; mul.i32 double_and_round32 V14, V4, V4; nop
nop; nop; mul.u32 D16, V5, V5; nop
nop; nop; cmp_grt.u32 VP1, V5, 0x1; nop
nop; nop; cmp_grt.i32 VP2, V5, 0x1; nop
halt
nop
nop
nop
