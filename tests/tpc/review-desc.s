// Review of tpc.md §9 item 9 with §10 items 4 and 5, descriptors written
// word by word through the machine window (§3.1, §2.1: descriptor t at
// kernel-view 0x400 + 0x38t, §9 item 13):
//  - tensor 0, i32, dims 0 and 1 valid (CONFIG 2 | 3 << 8), stride[0] = 2,
//    stride[1] = 0xFFFFFFC0 = -64 elements (i32, §10 item 4), base 0x200300:
//    c = (0, 1) -> 0x200300 + 4*(-64) = 0x200200, lane j at +4*2*j, so
//    lanes 0, 1, 2 read the words 10, 12, 14.
//  - tensor 1, i32, only dim 1 valid (CONFIG 2 | 2 << 8), DIM_0_SIZE 0,
//    stride[0] = 1, stride[1] = 16, base 0x201000: c = (5, 2) -> dim 0
//    ignored for address and bounds (§10 item 5): 0x201000 + 4*32 =
//    0x201080, lane j at +4j (stride[0]), no padding.
//@ cfg 0x400=0x200300 0x404=0 0x408=0xDEAD 0x40C=0x302
//@ cfg 0x410=128 0x414=2 0x418=4 0x41C=0xFFFFFFC0
//@ cfg 0x438=0x201000 0x43C=0 0x440=0xBAD 0x444=0x202
//@ cfg 0x448=0 0x44C=1 0x450=4 0x454=16
//@ mem 0x200200 i32 10 11 12 13 14 15
//@ mem 0x201080 i32 7 8 9
//@ expect V1.i32[0]=10 V1.i32[1]=12 V1.i32[2]=14 V1.i32[63]=0
//@ expect V2.i32[0]=7 V2.i32[1]=8 V2.i32[2]=9 V2.i32[63]=0
nop; set_indx I2, b00010, 0x1; nop; nop
nop; set_indx I3, b00001, 0x5; nop; nop
nop; set_indx I3, b00010, 0x2; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I3; nop; nop; nop
halt
nop
nop
nop
