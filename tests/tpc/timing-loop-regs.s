// Timing model: LOOP reads its registers as the vendor's Gaudi database
// says (docs/timing.rst): START (SRC_A) and BOUNDARY (SRC_B) at D2 / E3,
// STEP (SRC_C) at D2 / E4, the predicate at D2 / E2.
//   b0 -> b4   add.i32 S3 -> LOOP step     E3 vs D2/E4: 5; b4 is 4 after
//              b0: too early.  The body (4 bundles, no loop-carried hazard)
//              counts S4 up once a trip: step 1 (new) = 4 trips, step 2
//              (the old S3 from launch) = 2 trips.
//   b10 -> b15 the same at distance 5: silent, 4 trips in every mode.
//   b21 -> b24 cmp_eq SP1 -> LOOP predicate  E2 vs D2/E2: 3; b24 is 3
//              after b21: silent, the loop runs (SP1 = 1): S6 = 2.
// Hazards: b4 once.  Interlocked: one stall.
// Bundles: b0..b4 5, first loop 1 delay + 4 trips x 4 = 17 (functional,
// interlocked) or 2 x 4 = 9 (exposed), b10..b15 6, second loop 1 + 16 = 17,
// b21..b24 4, third loop 1 + 2 trips x 4 = 9, halt 1.
//@ timing functional interlocked exposed
//@ srf 3=2 5=2
//@ expect S5=1 S6=2 S7=4
//@ expect@functional S4=4
//@ expect@functional bundles 59
//@ expect@functional cycles 59
//@ expect@interlocked S4=4
//@ expect@interlocked bundles 59
//@ expect@interlocked stalls 1
//@ expect@interlocked hazards 1
//@ expect@exposed S4=2
//@ expect@exposed bundles 51
//@ expect@exposed stalls 0
//@ expect@exposed hazards 1
nop; add.i32 S3, S0, 0x1; nop; nop
nop
nop
nop
loop 0, 4, S3, <, End1
nop
nop; add.i32 S4, S4, 0x1; nop; nop
nop
nop
nop
End1:
nop; add.i32 S5, S0, 0x1; nop; nop
nop
nop
nop
nop
loop 0, 4, S5, <, End2
nop
nop; add.i32 S7, S7, 0x1; nop; nop
nop
nop
nop
End2:
nop; cmp_eq.i32 SP1, S0, 0x0; nop; nop
nop
nop
loop 0, 2, 1, <, End3, SP1
nop
nop; add.i32 S6, S6, 0x1; nop; nop
nop
nop
nop
End3:
halt
nop
nop
nop
