// The TPC whose dim-0 index is the argument S0 faults (SLM_RANGE, tpc.md
// §6.6) after 300 trips of a loop; the others run 5000 trips and halt.  How
// far the others got when the run ends is the rule of docs/machine.rst,
// "Host threads".
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov.i32 S11, 0x0; nop; nop
nop; mov.i32 S12, 0x1388; nop; nop
nop; cmp_eq.i32 SP1, S10, S0; nop; nop
nop; jmpr Bad, SP1; nop; nop
loop S11, S12, 1, <, End
nop
nop; add.i32 S5, S5, 0x1; nop; nop
End:
halt
nop
nop
nop
Bad:
nop; mov.i32 S12, 0x12c; nop; nop
loop S11, S12, 1, <, End2
nop
nop; add.i32 S5, S5, 0x1; nop; nop
End2:
ld_l S1, 0x400; nop; nop; nop
halt
nop
nop
nop
