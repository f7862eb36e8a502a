// gdb test TPC kernel: S2 counts three bundles, then HALT (tpc.md §6.4).
nop; add.i32 S2, S2, 0x1; nop; nop
nop; add.i32 S2, S2, 0x1; nop; nop
nop; add.i32 S2, S2, 0x1; nop; nop
halt
nop
nop
nop
