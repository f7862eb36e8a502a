// Review of tpc.md §9 items 6, 7, 8 for the element sizes the other tests
// leave out (§3.1, §3.3, §3.4, §10 item 3):
//  - E = 1, dim 0 partly outside: lanes 0..9 data, the rest the low byte of
//    the replicated padding 0x7B7B7B7B;
//  - E = 2, negative coordinate -3: lanes 0..2 and 11..127 padding (low 16
//    bits of 0xBEEFBEEF), lanes 3..10 elements 0..7; a store at the same
//    coordinate culls lanes 0..2 (memory below the base untouched) and
//    element 8 (out of bounds) stays;
//  - E = 2, dim 1 out of bounds: the whole vector is padding 0x1122 and a
//    store writes nothing (not even row 0 or the row-2 address);
//  - PARTIAL with offset 70 > 63 (bits 31:16 of S30 set, ignored): no lane
//    loaded; S31 = offset 62, size 5 (6 lanes) clipped to lanes 62..63;
//    then S31 = offset 64 (= N), size 1: the store writes nothing.
//@ tensor 0 0x200000 0 10 pad=0x7B7B7B7B
//@ mem 0x200000 u8 1 2 3 4 5 6 7 8 9 10
//@ tensor 1 0x201000 1 8 pad=0xBEEFBEEF
//@ mem 0x200FFA u16 1 2 3
//@ mem 0x201000 u16 100 101 102 103 104 105 106 107 0xAAA
//@ tensor 2 0x202000 2 64
//@ mem 0x202000 i32 10 11 12 13 14 15 16 17
//@ mem 0x2020F4 i32 -1 -1 -1 -1
//@ tensor 3 0x203000 1 8,2 pad=0x11221122
//@ mem 0x203000 u16 1 2
//@ mem 0x203020 u16 7 7
//@ srf 30=0xFFFF4603 31=0x3E05
//@ expect V1.u8[0]=1 V1.u8[9]=10 V1.u8[10]=0x7B V1.u8[255]=0x7B
//@ expect V2.u16[0]=0xBEEF V2.u16[2]=0xBEEF V2.u16[3]=100 V2.u16[10]=107
//@ expect V2.u16[11]=0xBEEF V2.u16[127]=0xBEEF
//@ expect V3.u16[*]=0x1122 V6.i32[*]=9
//@ expect mem 0x200FFA u16 1 2 3 0x55 0x55 0x55 0x55 0x55 0x55 0x55 0x55 0xAAA
//@ expect mem 0x202000 i32 10 11 12 13 14 15 16 17
//@ expect mem 0x2020F4 i32 -1 9 9 -1
//@ expect mem 0x203000 u16 1 2
//@ expect mem 0x203020 u16 7 7
nop; nop; mov.i32 V6, 0x9; nop
nop; nop; mov.i16 V5, 0x55; nop
nop; set_indx I3, b00001, 0xFFFFFFFD; nop; nop
nop; set_indx I4, b00010, 0x2; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I3; nop; nop; nop
ld_tnsr V3, 0x3, I4; nop; nop; nop
ld_tnsr V6, 0x2, I2, S30; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I3, V5
nop; nop; nop; st_tnsr 0x3, I4, V5
nop; nop; nop; st_tnsr 0x2, I2, V6, S31
nop; mov.i32 S31, 0x4001; nop; nop
nop; nop; nop; st_tnsr 0x2, I2, V5, S31
halt
nop
nop
nop
