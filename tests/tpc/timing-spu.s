// Timing model, SPU latency classes (docs/timing.rst, target/tpc/timing.def).
// Distance = max(1, max(Pw, Cs) - Cr + 1) cycles between producer and consumer:
//   b0 -> b1  add.i32 -> SPU SRC_A      Pw E3, Cr D2 / Cs E3: 4
//   b2 -> b3  mul.f32 -> SPU SRC_A/B    Pw E5, D2 / E3:      6  (both operands)
//   b4 -> b5  cmp_eq -> SPU predicate   Pw E2, E1 / E2:      2
//   b6 -> b10 add.i32 -> SPU SRC_A with three NOPs between: exactly 4, no hazard
// Interlocked issue cycles: b0 0, b1 4 (stall 3), b2 5, b3 11 (stall 5), b4 12,
// b5 14 (stall 1), b6..b10 15..19, halt 20: CYCLES 21, stalls 9.
// Exposed (no stalls, CYCLES = bundles = 12): b1 reads S1's old value 0
// (S2 = 1), b3 the old S3 0.0 (S6 = 0.0), b5 the old SP1 0 (S7 not written);
// b10 is far enough and reads S8 = 9 in every mode.  Each too-early read
// counts once: b1 one, b3 two (SRC_A and SRC_B), b5 one.
//@ timing functional interlocked exposed
//@ srf 4=0x40000000 5=0x40400000
//@ expect S1=5 S3=0x40c00000 SP1=1 S8=9 S9=10
//@ expect bundles 12
//@ expect@functional S2=6 S6=0x41400000 S7=7
//@ expect@functional cycles 12
//@ expect@functional stalls 0
//@ expect@functional hazards 0
//@ expect@interlocked S2=6 S6=0x41400000 S7=7
//@ expect@interlocked cycles 21
//@ expect@interlocked stalls 9
//@ expect@interlocked hazards 4
//@ expect@exposed S2=1 S6=0 S7=0
//@ expect@exposed cycles 12
//@ expect@exposed stalls 0
//@ expect@exposed hazards 4
nop; add.i32 S1, S0, 0x5; nop; nop
nop; add.i32 S2, S1, 0x1; nop; nop
nop; mul.f32 S3, S4, S5; nop; nop
nop; add.f32 S6, S3, S3; nop; nop
nop; cmp_eq.i32 SP1, S0, S0; nop; nop
nop; add.i32 S7, S0, 0x7, SP1; nop; nop
nop; add.i32 S8, S0, 0x9; nop; nop
nop
nop
nop
nop; add.i32 S9, S8, 0x1; nop; nop
halt
nop
nop
nop
