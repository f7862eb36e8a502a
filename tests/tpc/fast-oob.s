// Fast-path review (tpc-fastreview): bounds at every dim (tpc.md §3.2,
// §3.4, §10 item 5) for loads and stores that the fast path must hand to
// the general one.  Tensor 0: i32, sizes 128,2,2,2,2, strides 1,128,256,
// 512,1024, base 0x200000, padding 0x7777.
//  - c = (64,1,1,1,1): the last whole in-bounds vector (c0 = 128 - 64):
//    element offset 1984 -> 0x201F00, lanes 0, 1, 63 = 1, 2, 3;
//  - c = (65,1,1,1,1): lanes 0..62 from 0x201F04, lane 63 padding;
//  - c = (-1,0,0,0,0): lane 0 padding, lane 1 = element 0 (0x10);
//  - dim d = 1..4 at 2 (= size) or -1: every lane padding, and a store
//    writes nothing (the words where element (0, .., c_d, ..) would be,
//    0x200400 0x200800 0x201000 0x202000 and 0x1FFE00 0x1FFC00 0x1FF800
//    0x1FF000, stay -1);
//  - a store of 0x55 at (64,1,1,1,1) writes the whole vector, then one of
//    0x66 at (65,1,1,1,1) lanes 0..62 (0x201F04..0x201FFF) and culls lane 63
//    (0x202000 stays -1).
// Tensor 1 (written word by word): i32, only dims 0 and 2 valid (CONFIG
// 0x502), size0 64, size2 2, stride2 64; dims 1, 3, 4 have nonzero sizes and
// strides that must be ignored: c = (0,-5,1,7,9) -> 0x203000 + 4*64 =
// 0x203100 (lanes 0, 1 = 0x31, 0x32), c = (0,0,2,0,0) -> padding 0x9999.
//@ tensor 0 0x200000 2 128,2,2,2,2 pad=0x7777
//@ cfg 0x438=0x203000 0x43C=0 0x440=0x9999 0x444=0x502
//@ cfg 0x448=64 0x44C=1 0x450=0 0x454=1000 0x458=2 0x45C=64
//@ cfg 0x460=0 0x464=7 0x468=0 0x46C=9
//@ mem 0x200000 i32 0x10
//@ mem 0x201F00 i32 1 2
//@ mem 0x201FFC i32 3
//@ mem 0x203100 i32 0x31 0x32
//@ mem 0x200400 i32 -1
//@ mem 0x200800 i32 -1
//@ mem 0x201000 i32 -1
//@ mem 0x202000 i32 -1
//@ mem 0x1FFE00 i32 -1
//@ mem 0x1FFC00 i32 -1
//@ mem 0x1FF800 i32 -1
//@ mem 0x1FF000 i32 -1
//@ expect V1.i32[0]=1 V1.i32[1]=2 V1.i32[2]=0 V1.i32[63]=3
//@ expect V2.i32[0]=2 V2.i32[1]=0 V2.i32[62]=3 V2.i32[63]=0x7777
//@ expect V3.i32[0]=0x7777 V3.i32[1]=0x10 V3.i32[2]=0
//@ expect V4.i32[*]=0x7777 V5.i32[*]=0x7777 V6.i32[*]=0x7777 V7.i32[*]=0x7777
//@ expect V8.i32[*]=0x7777 V9.i32[*]=0x7777 V10.i32[*]=0x7777 V11.i32[*]=0x7777
//@ expect V12.i32[0]=0x31 V12.i32[1]=0x32 V12.i32[63]=0 V13.i32[*]=0x9999
//@ expect mem 0x200400 i32 -1
//@ expect mem 0x200800 i32 -1
//@ expect mem 0x201000 i32 -1
//@ expect mem 0x202000 i32 -1
//@ expect mem 0x1FFE00 i32 -1
//@ expect mem 0x1FFC00 i32 -1
//@ expect mem 0x1FF800 i32 -1
//@ expect mem 0x1FF000 i32 -1
//@ expect mem 0x201F00 i32 0x55 0x66
//@ expect mem 0x201FFC i32 0x66 -1
nop; set_indx I2, b00001, 0x40; nop; nop
nop; set_indx I2, b11110, 0x1; nop; nop
nop; set_indx I3, b00001, 0x41; nop; nop
nop; set_indx I3, b11110, 0x1; nop; nop
nop; set_indx I4, b00001, 0xFFFFFFFF; nop; nop
nop; set_indx I5, b00010, 0x2; nop; nop
nop; set_indx I6, b00100, 0x2; nop; nop
nop; set_indx I7, b01000, 0x2; nop; nop
nop; set_indx I8, b10000, 0x2; nop; nop
nop; set_indx I9, b00010, 0xFFFFFFFF; nop; nop
nop; set_indx I10, b00100, 0xFFFFFFFF; nop; nop
nop; set_indx I11, b01000, 0xFFFFFFFF; nop; nop
nop; set_indx I12, b10000, 0xFFFFFFFF; nop; nop
nop; set_indx I13, b00010, 0xFFFFFFFB; nop; nop
nop; set_indx I13, b00100, 0x1; nop; nop
nop; set_indx I13, b01000, 0x7; nop; nop
nop; set_indx I13, b10000, 0x9; nop; nop
nop; set_indx I14, b00100, 0x2; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I3; nop; nop; nop
ld_tnsr V3, 0x0, I4; nop; nop; nop
ld_tnsr V4, 0x0, I5; nop; nop; nop
ld_tnsr V5, 0x0, I6; nop; nop; nop
ld_tnsr V6, 0x0, I7; nop; nop; nop
ld_tnsr V7, 0x0, I8; nop; nop; nop
ld_tnsr V8, 0x0, I9; nop; nop; nop
ld_tnsr V9, 0x0, I10; nop; nop; nop
ld_tnsr V10, 0x0, I11; nop; nop; nop
ld_tnsr V11, 0x0, I12; nop; nop; nop
ld_tnsr V12, 0x1, I13; nop; nop; nop
ld_tnsr V13, 0x1, I14; nop; mov.i32 V20, 0x55; nop
nop; nop; mov.i32 V21, 0x66; st_tnsr 0x0, I5, V20
nop; nop; nop; st_tnsr 0x0, I6, V20
nop; nop; nop; st_tnsr 0x0, I7, V20
nop; nop; nop; st_tnsr 0x0, I8, V20
nop; nop; nop; st_tnsr 0x0, I9, V20
nop; nop; nop; st_tnsr 0x0, I10, V20
nop; nop; nop; st_tnsr 0x0, I11, V20
nop; nop; nop; st_tnsr 0x0, I12, V20
nop; nop; nop; st_tnsr 0x0, I2, V20
nop; nop; nop; st_tnsr 0x0, I3, V21
halt
nop
nop
nop
