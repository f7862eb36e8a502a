// gdb test TPC kernel (started by launchst.s): V1 = 7 in all 64 i32 lanes,
// stored by st_tnsr at 0x20 to tensor 0 (64 x i32 at kernel offset 0x1000,
// tpc.md §3), an empty bundle at 0x40, then HALT at 0x60.
nop; nop; add.i32 V1, V1, 0x7; nop
nop; nop; nop; st_tnsr 0x0, I0, V1
nop; nop; nop; nop
halt
nop
nop
nop
