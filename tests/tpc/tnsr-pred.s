// LD_TNSR / ST_TNSR under a VPRF predicate on a tensor fully in memory
// (tpc.md §1.1, §3.3, §5.0.1): a disabled lane of a load keeps the income of
// the destination, a disabled lane of a store leaves memory untouched, and
// an unpredicated store writes exactly the in-bounds lanes.
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ tensor 2 0x202000 2 5
//@ mem 0x200000 i32 10 11 12 13 14 15 16 17
//@ mem 0x201000 i32 -1 -1 -1 -1 -1 -1 -1 -1
//@ mem 0x202000 i32 -1 -1 -1 -1 -1 -1 -1 -1
//@ expect V2.i32[0]=10 V2.i32[2]=12 V2.i32[3]=7 V2.i32[63]=7
//@ expect mem 0x201000 i32 -1 -1 -1 7 7 7 7 7
//@ expect mem 0x202000 i32 10 11 12 7 7 -1 -1 -1
nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x3; nop
nop; nop; mov.i32 V2, 0x7; nop
ld_tnsr V2, 0x0, I2, VP1; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V2, !VP1
nop; nop; nop; st_tnsr 0x2, I2, V2
halt
nop
nop
nop
