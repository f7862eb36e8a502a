// JMPR backward under a predicate and forward unconditionally (tpc.md §6.2).
//@ expect S2=3 S3=0
//@ expect bundles 11
Top:
nop; add.i32 S2, S2, 0x1; nop; nop
nop; cmp_less.i32 SP1, S2, 0x3; nop; nop
nop; jmpr Top, SP1; nop; nop
nop; jmpr Out; nop; nop
nop; add.i32 S3, S3, 0x1; nop; nop
Out:
halt
nop
nop
nop
