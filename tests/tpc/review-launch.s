// Review of tpc.md §10 item 12 (§9 item 29, §7.2): NUM_VALID_SRFS
// (KERNEL_CONFIG [7:2]) above 32 is taken as 32, so with 63 every S0..S31
// starts from KERNEL_SRF_i; SMALL_VLM (bit 0) is 0 here.
//@ cfg 0x7B8=0xFC
//@ srf 0=0x100 1=7 30=0x30 31=0x31
//@ expect S0=0x100 S1=7 S30=0x30 S31=0x31
halt
nop
nop
nop
