// One TPC rewrites code the others run (docs/machine.rst "Host threads").
// Tensor 0 is i32 at 0x4000000; the kernel at 0x2000000 (KERNEL_BASE), so
// dim-0 coordinate (PA - 0x4000000) / 4 reaches the kernel's own words:
// the word at offset 16 of a bundle holds the SPU immediate.  The TPC of
// index S1 (the writer) stores, in every trip, the word of Plus2 or Plus1 in
// turn into Patched, then runs it; the others run Patched too and store
// into their own word of Scratch (never run; 4 TPCs at most).  Each TPC adds Patched's
// immediate to S6 in each of S0 trips and stores S6 as element (index) of
// tensor 1.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; set_indx I3, b00001, -8388396; nop; nop
nop; set_indx I4, b00001, -8388388; nop; nop
nop; set_indx I2, b00001, -8388452; nop; nop
nop; add.i32 S12, S10, -8388380; nop; nop
nop; set_indx I6, b00001, S12; nop; nop
gen_addr AD2, 0x0, I3; cmp_eq.i32 SP1, S10, S1; nop; nop
gen_addr AD3, 0x0, I4; set_indx I5, b00001, S10; nop; nop
gen_addr AD1, 0x0, I2, SP1; mov.i32 S11, 0x0; nop; nop
gen_addr AD1, 0x0, I6, !SP1; mov.i32 S6, 0x0; nop; nop
gen_addr AD4, 0x1, I5; nop; nop; nop
ld_g S7, AD2; nop; nop; nop
ld_g S8, AD3; nop; nop; nop
nop; nop; nop; nop
nop; xor.i32 S9, S7, S8; nop; nop
loop S11, S0, 1, <, Done
nop
nop; xor.i32 S8, S8, S9; nop; st_g AD1, S8
nop
Patched:
nop; add.i32 S6, S6, 0x1; nop; nop
Done:
nop
nop; nop; nop; st_g AD4, S6
halt
nop
nop
nop
Plus1:
nop; add.i32 S6, S6, 0x1; nop; nop
Plus2:
nop; add.i32 S6, S6, 0x2; nop; nop
Scratch:
nop; nop; nop; nop
