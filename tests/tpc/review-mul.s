// Review of tpc.md §9 item 23 (§1.2, §5.3 MUL, §5.2 MUL upper32):
//  - mul.i16 into a pair with per-lane values (V_LANE_ID_16 squared):
//    product element k = k*k; Va lane i = element 2i = (2i)^2, Vb lane i =
//    element 2i+1 = (2i+1)^2 (even/odd interleave).
//  - mul.i32 pair of signed 64-bit products: -1 * 3 = -3 -> low 0xFFFFFFFD,
//    high 0xFFFFFFFF; mul.u32 0xFFFFFFFF * 3 = 0x2FFFFFFFD -> low
//    0xFFFFFFFD, high 2.
//  - SPU mul upper32: the same high words, 0xFFFFFFFF (i32) and 2 (u32);
//    plain SPU mul.i32 gives the low word 0xFFFFFFFD.
//@ srf 1=0xFFFFFFFF 2=3
//@ expect V2.i32[0]=0 V2.i32[1]=4 V2.i32[63]=15876
//@ expect V3.i32[0]=1 V3.i32[1]=9 V3.i32[63]=16129
//@ expect V6.u32[*]=0xFFFFFFFD V7.u32[*]=0xFFFFFFFF
//@ expect V8.u32[*]=0xFFFFFFFD V9.u32[*]=2
//@ expect S3=0xFFFFFFFF S4=2 S5=0xFFFFFFFD
nop; nop; mov.i16 V1, V_LANE_ID_16; nop
nop; nop; mov.i32 V4, S1; nop
nop; nop; mov.i32 V5, S2; nop
nop; nop; mul.i16 D2, V1, V1; nop
nop; nop; mul.i32 D6, V4, V5; nop
nop; nop; mul.u32 D8, V4, V5; nop
nop; mul.i32 upper32 S3, S1, S2; nop; nop
nop; mul.u32 upper32 S4, S1, S2; nop; nop
nop; mul.i32 S5, S1, S2; nop; nop
halt
nop
nop
nop
