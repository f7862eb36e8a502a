// A kernel that faults (SLM_RANGE, tpc.md §6.6): the runner must end with the
// machine's fault status (139) and print the fault line.
nop; nop; nop; nop
ld_l S1, 0x400; nop; nop; nop
halt
nop
nop
nop
