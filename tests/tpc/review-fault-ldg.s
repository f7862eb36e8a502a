// Review of tpc.md §6.6 MISALIGNED for LD_G (§9 item 27, §5.1): the
// address must be E-aligned, E from the GEN_ADDR tensor (i32, E = 4).
// Tensor 0 based at 0x200002: element 0's address 0x200002 is not
// 4-aligned, so `ld_g S1, AD1` faults code 5 with FAULT_ADDR 0x200002 at
// its PC 0x20 (GEN_ADDR itself never checks, §3.2) and S1 is unchanged.
//@ tensor 0 0x200002 2 64
//@ mem 0x200000 u32 0x11111111 0x22222222
//@ srf 1=0x77
//@ expect fault 5 0x20 0x200002
//@ expect S1=0x77 AD1=0x200002
gen_addr AD1, 0x0, I2; nop; nop; nop
ld_g S1, AD1; nop; nop; nop
halt
nop
nop
nop
