// TPC kernel of viewer-tpc4.s: loads a word of tensor 1 (with -tpc-timing interlocked
// and -machine gmem-latency=N the load costs N cycles) and stores S0 + 2 there.
gen_addr AD0, 0x1, I2; add.i32 S1, S0, 0x2; nop; nop
ld_g S5, AD0; nop; nop; nop
nop; nop; nop; st_g AD0, S1
halt
nop
nop
nop
