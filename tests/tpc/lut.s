// LOOKUP_1C / LOOKUP_2C and GET_LUT_ENTRY_AND_INTERVAL_START (docs/tpc-lut.rst),
// expected values worked out by hand:
//  - function 0x11a (32-bit reductions), index = lane id: C0 = partner
//    element i^1, C1 = i^2, C2 = i^4 in the lane's own group, as a SHUFFLE
//    control byte 0x80 | group << 5 | element: lane 0 -> 0x81, lane 8
//    (group 1, element 0) -> 0xA1, lane 17 (dual group 1, group 0, element 1)
//    -> 0x80; C2 of lane 7 -> 0x83;
//  - function 0x8c (16-bit): lane 0 holds elements 0 and 1 (bytes 0 and 2):
//    C1 = 0x00800081 (i^1), C2 = 0x00830082 (i^2); entry 64 + 0: i^4, i^8
//    -> 0x00850084, 0x00890088;
//  - function 0x8d (8-bit): lane 0 = elements 0..3, C0 (i^1) = 0x82838081;
//  - get_lut default variant, shift 16: 1.2 = 0x3f99999a -> entry
//    0x19999a >> 16 = 25, start 0x3f990000; sqrt_rsqrt: 3.0 (odd
//    exponent) -> 128 + 64 = 192, start 3.0; sin_cos, shift 17: 0.3 =
//    0x3e99999a -> floor(0.3 * 64) = 19, start 19/64 = 0x3e980000; tanh,
//    shift 17: 3.0 -> 64 + 64 * 1 + 32 = 160, start 3.0;
//  - an index past the table reads its last entry (64 -> entry 63 of 0x11a:
//    lane 63 = group 1, element 7 -> 0xA6).
//@ srf 1=0x3f99999a 2=0x40400000 3=0x3e99999a 4=64
//@ expect V2.u32[0]=0x81 V2.u32[1]=0x80 V2.u32[8]=0xA1 V2.u32[17]=0x80
//@ expect V4.u32[0]=0x82 V5.u32[0]=0x84 V5.u32[7]=0x83
//@ expect V6.u32[0]=0x00800081 V7.u32[0]=0x00830082 V8.u32[0]=0x00850084 V9.u32[0]=0x00890088
//@ expect V3.u32[0]=0x82838081
//@ expect V10.u32[0]=25 V11.u32[0]=0x3f990000 V12.u32[0]=192 V13.u32[0]=0x40400000
//@ expect V14.u32[0]=19 V15.u32[0]=0x3e980000 V16.u32[0]=160 V17.u32[0]=0x40400000
//@ expect V18.u32[5]=0xA6
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; add.i32 V20, V1, 0x40; nop
nop; nop; mov.i32 V19, S4; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
lookup_1c BV32 V2, V1, 0x11a; nop; nop; nop
lookup_2c BV32 D4, V1, 0x11a; nop; nop; nop
lookup_2c BV32 D6, V1, 0x8c; nop; nop; nop
lookup_2c BV32 D8, V20, 0x8c; nop; nop; nop
lookup_1c BV32 V3, V1, 0x8d; nop; nop; nop
lookup_1c BV32 V18, V19, 0x11a; nop; nop; nop
nop; nop; mov.f32 V21, S1; nop
nop; nop; mov.f32 V22, S2; nop
nop; nop; mov.f32 V23, S3; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; get_lut_entry_and_interval_start.f32 D10, V21, 0x10; nop
nop; nop; get_lut_entry_and_interval_start.f32 sqrt_rsqrt D12, V22, 0x10; nop
nop; nop; get_lut_entry_and_interval_start.f32 sin_cos D14, V23, 0x11; nop
nop; nop; get_lut_entry_and_interval_start.f32 tanh D16, V22, 0x11; nop
halt
nop
nop
nop
