// Control flow on a value another TPC writes: TPC 1 counts S0 trips, then
// sets element 0 of tensor 1 (a flag) to 1; TPC 0 loads the flag in a loop
// of at most 1000000 trips and leaves it when the flag is set, then stores
// the trips it made as element 1.  The others halt.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov.i32 S11, 0x0; nop; nop
nop; mov.i32 S12, 0xf4240; nop; nop
nop; mov.i32 S6, 0x0; nop; nop
nop; set_indx I2, b00001, 0x0; nop; nop
nop; set_indx I3, b00001, 0x1; nop; nop
gen_addr AD1, 0x1, I2; nop; nop; nop
gen_addr AD2, 0x1, I3; nop; nop; nop
nop; cmp_eq.i32 SP1, S10, 0x1; nop; nop
nop; jmpr Setter, SP1; nop; nop
nop; cmp_eq.i32 SP2, S10, 0x0; nop; nop
nop; jmpr Waiter, SP2; nop; nop
halt
nop
nop
nop
Waiter:
loop S11, S12, 1, <, Gave
nop
ld_g S5, AD1; nop; nop; nop
nop; cmp_eq.i32 SP3, S5, 0x1; nop; nop
nop; jmpr Seen, SP3; nop; nop
nop; add.i32 S6, S6, 0x1; nop; nop
Gave:
nop
Seen:
nop; nop; nop; st_g AD2, S6
halt
nop
nop
nop
Setter:
loop S11, S0, 1, <, Set
nop
nop; add.i32 S6, S6, 0x1; nop; nop
Set:
nop; mov.i32 S7, 0x1; nop; nop
nop; nop; nop; st_g AD1, S7
halt
nop
nop
nop
