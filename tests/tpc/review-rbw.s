// Review of tpc.md §9 item 17 (§6.1: every slot reads before any slot
// writes): a load and a store of the same address in one bundle - the load
// gets the old memory, the store's value is there afterwards - for SLM
// (ld_l/st_l at 0x40) and VLM (ld_l_v/st_l_v at 0x100); and a load slot
// writing S6 while the store slot stores S6 stores the old S6.
//@ srf 1=0x40 2=5 3=9 5=0x100 6=0x1234 7=0x80
//@ expect S4=5 S8=9 V3.i32[*]=7 V4.i32[*]=8
//@ expect S6=9 S9=0x1234
nop; nop; mov.i32 V1, 0x7; nop
nop; nop; mov.i32 V2, 0x8; nop
nop; nop; nop; st_l S1, S2
nop; nop; nop; st_l_v S5, V1
ld_l S4, S1; nop; nop; st_l S1, S3
ld_l S8, S1; nop; nop; nop
ld_l_v V3, S5; nop; nop; st_l_v S5, V2
ld_l_v V4, S5; nop; nop; nop
ld_l S6, S1; nop; nop; st_l S7, S6
ld_l S9, S7; nop; nop; nop
halt
nop
nop
nop
