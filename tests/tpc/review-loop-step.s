// Review of tpc.md §9 item 15 (and the register forms of item 14), §6.3:
//  1. REPEAT_AT_MOST_ONCE (LOOP bit 29, §4.4; no assembly syntax, so the
//     bundle of §4.5 (d) `loop S1, 0x10, -2, >=, End1, SP3` is written with
//     .long and byte 3 = 0x1B | 0x20): S1 = 20, 20 >= 16 enters, the body
//     runs once, the end check adds the step (S32 = 18) and exits although
//     18 >= 16 still holds.  Delay slot once.
//  2. zero-trip `loop 5, 3, 1, <`: S32 = 5, delay slot once, body skipped.
//  3. predicate false (SP5 = 0 at launch): delay slot once, body skipped,
//     S32 not written (stays 5).
//  4. register start/boundary/step, step not dividing the range:
//     S0 = 0, S8 = 10, S9 = 3, `<`: 0, 3, 6, 9 -> 4 iterations, S32 = 12,
//     sum of the iterator values 18.
// Bundles (§10 item 14): 5 + 3 + 3 + 2 + 4*2 + HALT = 22.
//@ srf 1=20 8=10 9=3
//@ expect S2=1 S3=1 S10=18
//@ expect S4=1 S5=0 S11=5
//@ expect S6=1 S7=0 S12=5
//@ expect S13=4 S14=18 S32=12
//@ expect bundles 22
nop; cmp_eq.i32 SP3, S0, S0; nop; nop
.long 0x3BE20062, 0x00000103, 0xFFFFFFE0, 0x0010040F, 0, 0, 0, 0
nop; add.i32 S3, S3, 0x1; nop; nop
nop; add.i32 S2, S2, 0x1; nop; nop
nop; add.i32 S10, S32, S0; nop; nop
loop 5, 3, 1, <, End2
nop; add.i32 S4, S4, 0x1; nop; nop
nop; add.i32 S5, S5, 0x1; nop; nop
End2:
nop; add.i32 S11, S32, S0; nop; nop
loop 0, 10, 1, <, End3, SP5
nop; add.i32 S6, S6, 0x1; nop; nop
nop; add.i32 S7, S7, 0x1; nop; nop
End3:
nop; add.i32 S12, S32, S0; nop; nop
loop S0, S8, S9, <, End4
nop
nop; add.i32 S13, S13, 0x1; nop; nop
nop; add.i32 S14, S14, S32; nop; nop
End4:
halt
nop
nop
nop
