// Review of tpc.md §9 item 2 (and item 1): `!SP0` never executes, in every
// slot (SP0 is always 1, §1); a load from an address outside SLM under a
// false predicate does not fault (§3.4, §9 item 1); a write to SP0 is
// ignored and SP0 still reads 1, so a later SP0-predicated op executes.
// S1 = 0x40 (SLM address), S2 = 0x1234 (value to store).
//@ srf 1=0x40 2=0x1234
//@ expect S3=0 S4=0 S5=0 S6=7 SP0=1
//@ expect V1.i32[*]=0
//@ expect bundles 8
nop; add.i32 S3, S0, 0x5, !SP0; nop; nop
nop; nop; mov.i32 V1, 0x5, !SP0; nop
ld_l S4, 0x800, !SP0; nop; nop; nop
nop; nop; nop; st_l S1, S2, !SP0
ld_l S5, S1; nop; nop; nop
nop; cmp_eq.i32 SP0, S0, S1; nop; nop
nop; add.i32 S6, S0, 0x7, SP0; nop; nop
halt
nop
nop
nop
