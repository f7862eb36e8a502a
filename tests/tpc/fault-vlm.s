// VLM_RANGE with KERNEL_CONFIG.SMALL_VLM = 1 (16 KiB, tpc.md §2): a full
// vector at 0x4000 is out of range; 0x3F00 is fine.  Misalignment is
// checked first (§10 item 10), so 0x4080 would be MISALIGNED.
//@ cfg 0x7B8=1
//@ expect fault 7 0x20 0x4000
nop; nop; nop; st_l_v 0x3f00, V0
ld_l_v V1, 0x4000; nop; nop; nop
halt
nop
nop
nop
