// ST_TNSR with dim-0 culling and RMW add (tpc.md §3.4, §5.4.1): lanes past
// the tensor are not written; S29 = f32 | add.
//@ tensor 1 0x201000 2 3
//@ tensor 2 0x202000 2 4
//@ mem 0x201000 i32 -1 -1 -1 -1 -1
//@ mem 0x202000 f32 1.5 2.5 3.5 4.5
//@ srf 29=7 5=0x3F800000
//@ expect mem 0x201000 i32 0 1 2 -1 -1
//@ expect mem 0x202000 f32 2.5 3.5 4.5 5.5
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; mov.f32 V2, S5; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
nop; nop; nop; st_tnsr 0x2, I2, V2, S29
halt
nop
nop
nop
