// TPC kernel for the trace of the direct loop (test_trace.py): a LOOP body
// of bundles the direct plans take (SPU and VPU arithmetic, a VPU MOV),
// decoded in the first pass and run by the direct loop in the next two,
// between bundles the staged path takes (gen_addr, st_g).  Stores S1 at
// tensor 1's base like timeline.tpc.s, so timeline.s can launch it.
gen_addr AD0, 0x1, I2; nop; nop; nop
loop 0x0, 0x3, 1, <, End
nop
nop; add.i32 S1, S1, 0x2; nop; nop
nop; nop; mov.i32 V1, S1; nop
nop; nop; add.i32 V2, V1, V1; nop
End:
nop; nop; nop; st_g AD0, S1
halt
nop
nop
nop
