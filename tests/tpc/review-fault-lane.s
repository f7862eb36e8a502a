// Review of tpc.md §10 item 10 (§3.4, §6.6, §9 item 27): among the lanes of
// a tensor load, the lowest-numbered enabled in-bounds lane that is not
// backed by memory is reported.  HBM is 64 MiB here (ends at 0x4000000, a
// hole follows, machine.md §2); tensor 0 (i32, 64 elements) starts at
// 0x3FFFFF8, so lanes 0, 1 are memory and lanes 2.. are not.  VP1 = all
// ones except bits 8..11 (section 0 = 0xFFFFF0FF via flavor 0, §5.1.1), so
// lane 2's bytes are disabled (per-byte gating, §10 item 6) and the fault
// names lane 3: GLOBAL_FAULT (8), FAULT_ADDR 0x4000004, FAULT_PC 0x60.
// The faulting bundle has no effect: V2 keeps 5 (lanes 0, 1 included).
//@ tensor 0 0x3FFFFF8 2 64
//@ srf 1=0xFFFFF0FF
//@ expect fault 8 0x60 0x4000004
//@ expect V2.i32[0]=5 V2.i32[1]=5 V2.i32[63]=5
nop; nop; mov.i32 V2, 0x5; nop
nop; nop; mov VP1, SP0; nop
mov VP1, S1, 0x0; nop; nop; nop
ld_tnsr V2, 0x0, I2, VP1; nop; nop; nop
halt
nop
nop
nop
