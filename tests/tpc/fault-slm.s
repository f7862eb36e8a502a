// SLM_RANGE (tpc.md §2, §6.6): ld_l beyond 1 KiB faults with the address in
// FAULT_ADDR and the bundle has no effect (the SPU add of that bundle).
//@ expect fault 6 0x20 0x400
//@ expect S2=0
//@ expect bundles 1
nop; nop; nop; nop
ld_l S1, 0x400; add.i32 S2, S2, 0x400; nop; nop
halt
nop
nop
nop
