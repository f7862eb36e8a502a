// Review of tpc.md §9 item 22 for the types vpu-int.s leaves out (§5.0.4:
// integers wrap modulo 2^(8E), `st` saturates to the type's range; §5.0.3:
// scalar 8/16-bit results are sign-extended for signed types, zero-extended
// otherwise).
//  i8:  127 + 1 = -128 (0x80) wrapping, 127 saturated; -128 - 1 st = -128
//  u8:  5 - 9 = 0xFC wrapping, 0 saturated
//  i16: 0x7FFF + 0x7FFF = 0xFFFE wrapping, 0x7FFF saturated
//  u16: 0xFFFF + 2 = 1 wrapping, 0xFFFF saturated; 1 - 2 st = 0
//  u32: 0xFFFFFFFF + 2 = 1 wrapping, 0xFFFFFFFF saturated; 1 - 2 = 0xFFFFFFFF
//       wrapping, 0 saturated
//  i32: 0x80000000 - 1 st = 0x80000000
//@ srf 1=0x7F 2=0xFFFF 3=0x80 4=5 5=0x7FFF 6=0xFFFFFFFF 7=1 8=0x80000000 9=0x8000
//@ expect V2.u8[*]=0x80 V3.u8[*]=0x7F V4.u8[*]=0x80
//@ expect V6.u8[*]=0xFC V7.u8[*]=0
//@ expect V9.u16[*]=0xFFFE V10.u16[*]=0x7FFF
//@ expect V12.u16[*]=1 V13.u16[*]=0xFFFF V14.u16[*]=0
//@ expect V16.u32[*]=1 V17.u32[*]=0xFFFFFFFF V18.u32[*]=0xFFFFFFFF V19.u32[*]=0
//@ expect V21.u32[*]=0x80000000
//@ expect S10=0xFFFFFF80 S11=0x7F S12=1 S13=0xFFFF S14=0xFFFF8000 S15=0
nop; nop; mov.i8 V1, S1; nop
nop; nop; add.i8 V2, V1, 0x1; nop
nop; nop; add.i8 st V3, V1, 0x1; nop
nop; nop; mov.i8 V20, S3; nop
nop; nop; sub.i8 st V4, V20, 0x1; nop
nop; nop; mov.u8 V5, S4; nop
nop; nop; sub.u8 V6, V5, 0x9; nop
nop; nop; sub.u8 st V7, V5, 0x9; nop
nop; nop; mov.i16 V8, S5; nop
nop; nop; add.i16 V9, V8, V8; nop
nop; nop; add.i16 st V10, V8, V8; nop
nop; nop; mov.u16 V11, S2; nop
nop; nop; add.u16 V12, V11, 0x2; nop
nop; nop; add.u16 st V13, V11, 0x2; nop
nop; nop; mov.u16 V22, S7; nop
nop; nop; sub.u16 st V14, V22, 0x2; nop
nop; nop; mov.u32 V15, S6; nop
nop; nop; add.u32 V16, V15, 0x2; nop
nop; nop; add.u32 st V17, V15, 0x2; nop
nop; nop; mov.u32 V23, S7; nop
nop; nop; sub.u32 V18, V23, 0x2; nop
nop; nop; sub.u32 st V19, V23, 0x2; nop
nop; nop; mov.i32 V24, S8; nop
nop; nop; sub.i32 st V21, V24, 0x1; nop
nop; add.i8 S10, S1, 0x1; nop; nop
nop; add.i8 st S11, S1, 0x1; nop; nop
nop; add.u16 S12, S2, 0x2; nop; nop
nop; add.u16 st S13, S2, 0x2; nop; nop
nop; sub.i16 st S14, S9, 0x1; nop; nop
nop; sub.u32 st S15, S7, 0x2; nop; nop
halt
nop
nop
nop
