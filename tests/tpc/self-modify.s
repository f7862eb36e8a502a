// Code written by the kernel itself is executed as written (tpc.md §6.1:
// bundles are fetched from memory each time; machine.md: no stale decode).
// ST_G rewrites the low IMM bits (bits 151..159 = bits 23..31 of bundle word
// 4) of the ADD inside a 2-iteration loop: the first iteration adds 1, the
// second the new immediate 100, so S5 = 101 (a stale decode would give 2).
// Tensor 1 maps the kernel (KERNEL_BASE 0x100000) as i32: element 0x24 is
// byte 144 = bundle 4, word 4; S6 = that word with IMM[8:0] = 100.
//@ tensor 1 0x100000 2 64
//@ srf 6=0x3201F000
//@ expect S5=101
nop; set_indx I2, b00001, 0x24; nop; nop
gen_addr AD1, 0x1, I2; nop; nop; nop
loop 0x0, 0x2, 1, <, End
nop
nop; add.i32 S5, S5, 0x1; nop; nop
nop; nop; nop; st_g AD1, S6
End:
halt
nop
nop
nop
