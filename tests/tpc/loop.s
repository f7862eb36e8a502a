// LOOP with an immediate bound and a negative step (tpc.md §4.5 d, §6.3):
// 20, 18, 16 -> three iterations, the delay slot once, S32 ends at 14.
//@ srf 1=20
//@ expect S2=3 S3=1 S32=14 S4=54
nop; cmp_eq.i32 SP3, S0, S0; nop; nop
loop S1, 0x10, -2, >=, End1, SP3
nop; add.i32 S3, S3, 0x1; nop; nop
nop; add.i32 S2, S2, 0x1; nop; nop
nop; add.i32 S4, S4, S32; nop; nop
End1:
halt
nop
nop
nop
