// POPCNT, FIND_FIRST, BREV (tpc.md §5.5.4) over the element width of the
// type; FIND_FIRST gives the bit index from bit 0 in both directions, 0xFF
// when no bit matches.  By hand: 0xF0F0F0F0 has 16 ones and 16 zeros; the
// low byte of 0x1FF has 8 ones; 0x0001 as i16 has 15 zeros; first one of
// 0x80 is bit 7, highest one of 0x00F00000 bit 23, first zero of 0xFFFF bit
// 16, u8 0x03 highest one bit 1; brev 1 = 0x80000000 (i32), 0x8000 (u16),
// u8 0x0E -> 0x70; i16 brev 0x0001 = 0x8000 sign-extended.
//@ srf 0=0xF0F0F0F0 1=0x1FF 2=1 3=0x80 4=0x00F00000 5=0xFFFF 6=0 7=0x0103 8=0x0E
//@ expect S10=16 S11=16 S12=8 S13=15 S14=7 S15=23 S16=16 S17=0xFF S18=1
//@ expect S19=0x80000000 S20=0x8000 S21=0x70 S22=0xFFFF8000
//@ expect V1.u8[*]=4 V2.u32[*]=7 V3.u16[*]=0xC000 V4.u16[*]=14
nop; popcnt.i32 set=1 S10, S0; nop; nop
nop; popcnt.i32 set=0 S11, S0; nop; nop
nop; popcnt.u8 set=1 S12, S1; nop; nop
nop; popcnt.i16 set=0 S13, S2; nop; nop
nop; find_first.i32 set=1 start_lsb S14, S3; nop; nop
nop; find_first.i32 set=1 start_msb S15, S4; nop; nop
nop; find_first.u32 set=0 start_lsb S16, S5; nop; nop
nop; find_first.i32 set=1 start_lsb S17, S6; nop; nop
nop; find_first.u8 set=1 start_msb S18, S7; nop; nop
nop; brev.i32 S19, S2; nop; nop
nop; brev.u16 S20, S2; nop; nop
nop; brev.u8 S21, S8; nop; nop
nop; brev.i16 S22, S2; nop; nop
nop; nop; mov.i8 V9, 0xF; nop
nop; nop; popcnt.u8 set=1 V1, V9; nop
nop; nop; find_first.i32 set=1 start_lsb V2, S3; nop
nop; nop; brev.u16 V3, 0x3; nop
nop; nop; popcnt.u16 set=0 V4, V3; nop
halt
nop
nop
nop
