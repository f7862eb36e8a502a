// ST_TNSR with the pack switch (docs/tpc-lut.rst "Pack stores"): the
// vector holds r = 4/E interleaved rows (element r*i + k is stored at
// element 64*k + i), as CONVERT f32->bf16 all_lanes leaves them; E = 4
// stores unchanged.  Values by hand from V_LANE_ID_16 / V_LANE_ID_8
// (element k = k):
//  - 16-bit, 128 elements: stored 0 2 4 .. 126, then 1 3 5 .. 127;
//  - 8-bit, 256 elements: stored 0 4 8 .. 252, then 1 5 .., 2 6 .., 3 7 .. 255;
//  - 32-bit: lane i = i, as without pack.
//  - with VP1 = lanes whose lane id is even (16-bit), only the even source
//    elements are stored: elements 0..63 written, 64..127 keep 0xEEEE.
//@ tensor 1 0x201000 1 128
//@ tensor 2 0x202000 0 256
//@ tensor 3 0x203000 2 64
//@ tensor 4 0x204000 1 128
//@ mem 0x204000 u16 0xEEEE 0xEEEE
//@ mem 0x204080 u16 0xEEEE 0xEEEE
//@ expect mem 0x201000 u16 0 2 4 6
//@ expect mem 0x20107e u16 126 1 3
//@ expect mem 0x2010fe u16 127
//@ expect mem 0x202000 u8 0 4 8 12
//@ expect mem 0x20203f u8 252 1 5
//@ expect mem 0x20207f u8 253 2 6
//@ expect mem 0x2020bf u8 254 3 7
//@ expect mem 0x2020ff u8 255
//@ expect mem 0x203000 i32 0 1 2
//@ expect mem 0x2030fc i32 63
//@ expect mem 0x204000 u16 0 2
//@ expect mem 0x204080 u16 0xEEEE 0xEEEE
nop; nop; mov.i16 V1, V_LANE_ID_16; nop
nop; nop; mov.i8 V2, V_LANE_ID_8; nop
nop; nop; mov.i32 V3, V_LANE_ID_32; nop
nop; nop; and.i16 V4, V1, 0x1; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; cmp_eq.i16 VP1, V4, 0x0; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; st_tnsr pack 0x1, I2, V1
nop; nop; nop; st_tnsr pack 0x2, I2, V2
nop; nop; nop; st_tnsr pack 0x3, I2, V3
nop; nop; nop; st_tnsr pack 0x4, I2, V1, VP1
halt
nop
nop
nop
