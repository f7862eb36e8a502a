// Fast-path review (tpc-fastreview): tensors in SBUF (machine.md §1:
// partitions of 192 KiB populated at a 256 KiB pitch, one RAM region each).
// Tensor 0 (i32) ends in partition 0 at 0x200002FF80 + 4*32 = the first
// unpopulated byte 0x2000030000; tensor 1 is the start of partition 1.
//  - a fast load/store round trip inside partition 1 works (V2 = 0x11);
//  - a store and a load of tensor 0 under a false predicate (SP1 = 0,
//    !SP0) touch nothing and do not fault (tpc.md §3.4);
//  - the load at c0 = 0 of tensor 0 straddles the hole: GLOBAL_FAULT (8)
//    at PA 0x2000030000 (lowest failing lane, §10 item 10), PC 0xC0 (bundle 6), and
//    the bundle's store to partition 1 has no effect.
//@ tensor 0 0x200002FF80 2 128
//@ tensor 1 0x2000040000 2 64
//@ expect fault 8 0xC0 0x2000030000
//@ expect V2.i32[*]=0x11 V3.i32[*]=0x22
//@ expect mem 0x2000040000 i32 0x11 0x11
nop; nop; mov.i32 V1, 0x11; nop
nop; nop; mov.i32 V3, 0x22; st_tnsr 0x1, I2, V1
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x0, I2, V3, SP1
ld_tnsr V4, 0x0, I2, !SP0; nop; nop; st_tnsr 0x0, I2, V3, !SP0
ld_tnsr V4, 0x0, I2, SP1; nop; nop; st_tnsr 0x0, I2, V3, SP1
ld_tnsr V3, 0x0, I2; nop; nop; st_tnsr 0x1, I2, V3
halt
nop
nop
nop
