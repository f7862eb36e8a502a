// ST_TNSR with dim-0 culling and RMW add (tpc.md §3.4, §5.4.1): lanes past
// the tensor are not written; S29 = f32 | add.  Store-slot polarity: SP2 = 0
// suppresses a store, !SP2 runs it (§9 item 2); CACHE_FLUSH is a no-op.
//@ tensor 1 0x201000 2 3
//@ tensor 2 0x202000 2 4
//@ tensor 3 0x203000 2 2
//@ mem 0x201000 i32 -1 -1 -1 -1 -1
//@ mem 0x202000 f32 1.5 2.5 3.5 4.5
//@ mem 0x203000 i32 -1 -1
//@ srf 29=7 5=0x3F800000
//@ expect mem 0x201000 i32 0 1 2 -1 -1
//@ expect mem 0x202000 f32 2.5 3.5 4.5 5.5
//@ expect mem 0x203000 i32 7 7
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; mov.f32 V2, S5; nop
nop; nop; mov.i32 V3, 0x7; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
nop; nop; nop; st_tnsr 0x2, I2, V2, S29
nop; nop; nop; st_tnsr 0x3, I2, V1, SP2
nop; nop; nop; st_tnsr 0x3, I2, V3, !SP2
nop; nop; nop; cache_flush
halt
nop
nop
nop
