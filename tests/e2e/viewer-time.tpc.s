// TPC kernel of viewer-time.s: stores S0 + 2 at tensor 1's base (0x01100000).
gen_addr AD0, 0x1, I2; add.i32 S1, S0, 0x2; nop; nop
nop; nop; nop; st_g AD0, S1
halt
nop
nop
nop
