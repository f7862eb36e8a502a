// Review of tpc.md §10 item 11 (§9 items 12, 27): `ld_l mmio` at offset
// 0x1000 (past the 4 KiB kernel view) faults SLM_RANGE (code 6) with the
// offset in FAULT_ADDR; the bundle has no effect.
//@ srf 1=0x1000
//@ expect fault 6 0x20 0x1000
//@ expect S4=0
nop; add.i32 S3, S3, 0x1; nop; nop
ld_l mmio S5, S1; add.i32 S4, S4, 0x1; nop; nop
halt
nop
nop
nop
