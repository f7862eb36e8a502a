// Review of tpc.md §9 item 1 (§5.0.1, §3.4) for the destination kinds the
// other tests leave out: under a false scalar predicate (SP2 = 0 at launch,
// or !SP1 with SP1 = 1) an IRF (set_indx, IRF add), AD (gen_addr), SP (cmp)
// and VPRF (VPU cmp) destination keeps its value; the same instructions
// with the predicate true do write (I4, AD2, SP4).
//@ tensor 0 0x200000 2 64
//@ srf 1=9
//@ expect I3=0,0,0,0,0 I4=9,0,0,0,0 I5=0,0,0,0,0
//@ expect AD1=0 AD2=0x200024
//@ expect SP3=0 SP4=1 VP1.b[0]=0 VP1.b[255]=0
nop; cmp_eq.i32 SP1, S0, S0; nop; nop
nop; set_indx I3, b00001, S1, SP2; nop; nop
nop; set_indx I4, b00001, S1, SP1; nop; nop
nop; add.i32 b11111 I5, S1, I4, !SP1; nop; nop
gen_addr AD1, 0x0, I4, SP2; nop; nop; nop
gen_addr AD2, 0x0, I4, !SP2; nop; nop; nop
nop; cmp_eq.i32 SP3, S0, S0, SP2; nop; nop
nop; cmp_eq.i32 SP4, S0, S0, !SP2; nop; nop
nop; nop; cmp_eq.i32 VP1, V0, V0, !SP1; nop
halt
nop
nop
nop
