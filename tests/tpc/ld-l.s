// LD_L (seed: s_*_ld_l): SLM by default, CFG with mmio; income kept under a
// false predicate (SP3 = 0), polarity inverts it.  tpc.md §5.1, §2.1.
//@ srf 1=0x40 2=0xCAFF 3=0x1234
//@ cfg 0x400=0x200000 0x410=77
//@ expect S3=0x1234 S4=0xCAFF S5=0x200000 S6=77 S7=0 S8=0xCAFF SP2=0 SP4=1
nop; nop; nop; st_l S1, S2
ld_l S4, S1; nop; nop; nop
ld_l mmio S5, 0x400; nop; nop; nop
ld_l mmio S6, 0x410; nop; nop; nop
ld_l S3, S1, SP3; nop; nop; nop
ld_l S7, 0x0; nop; nop; nop
ld_l S8, S1, !SP3; nop; nop; nop
ld_l SP2, 0x0; nop; nop; nop
ld_l SP4, S1; nop; nop; nop
halt
nop
nop
nop
