// Timing model, VPU / load / store latency classes (docs/timing.rst):
//   b0 -> b1  ld_tnsr -> VPU SRC_A        Pw E3, D2 / E3: 4
//   b2 -> b3  mov.i32 -> VPU SRC_A/B      E3 -> D2 / E3: 4
//   b3 -> b4  add.f32 -> VPU SRC_A/B      E3 -> D2 / E3: 4  (Gaudi's float ADD
//                                         writes at E3; E5 was Goya's)
//   b4 -> b5  add.f32 -> st_tnsr value    E3 -> E6 / E6: 1
//   b6 -> b7  cmp_eq -> VPU VP predicate  E2 -> E1 / E2: 2
//   b8 -> b9  SPU IRF add -> ld_tnsr I    E1 -> E1 / E1: 1
// Interlocked issue: b0 0, b1 4 (stall 3), b2 5, b3 9 (3), b4 13 (3), b5 14,
// b6 15, b7 17 (1), b8 18, b9 19, halt 20: CYCLES 21, stalls 10.
// Exposed: b1 reads V1 before the load (0): V2 = 1; b3 reads V3 = 0.0, so
// V4 = 0.0; b4 reads the old V4: V5 = 0.0, stored as such; b7 reads VP1
// before the compare (0): V6 stays 0.  b5 and b9 are far enough.
// Too-early reads: b1 1, b3 2, b4 2, b7 1 = 6.  Exposed also breaks a
// vendor rule: b9's ld_tnsr issues exactly 4 cycles after b5's st_tnsr
// (not allowed, timing-rules.s): 7 hazards; interlocked b7's stall makes
// that 5 cycles.
//@ timing functional interlocked exposed
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 64
//@ mem 0x200000 i32 10 11
//@ mem 0x200100 i32 77
//@ expect V1.i32[0]=10 V1.i32[1]=11 V3.i32[*]=0x40000000 V7.i32[0]=77 I2=64,0,0,0,0
//@ expect bundles 11
//@ expect@functional V2.i32[0]=11 V2.i32[1]=12 V4.f32[*]=4.0 V5.f32[*]=8.0 V6.i32[*]=7
//@ expect@functional cycles 11
//@ expect@functional mem 0x300000 f32 8.0 8.0
//@ expect@interlocked V2.i32[0]=11 V2.i32[1]=12 V4.f32[*]=4.0 V5.f32[*]=8.0 V6.i32[*]=7
//@ expect@interlocked mem 0x300000 f32 8.0 8.0
//@ expect@interlocked cycles 21
//@ expect@interlocked stalls 10
//@ expect@interlocked hazards 6
//@ expect@exposed V2.i32[*]=1 V4.i32[*]=0 V5.i32[*]=0 V6.i32[*]=0
//@ expect@exposed cycles 11
//@ expect@exposed stalls 0
//@ expect@exposed hazards 7
//@ expect@exposed mem 0x300000 f32 0.0 0.0
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.i32 V2, V1, 0x1; nop
nop; nop; mov.i32 V3, 0x40000000; nop
nop; nop; add.f32 V4, V3, V3; nop
nop; nop; add.f32 V5, V4, V4; nop
nop; nop; nop; st_tnsr 0x1, I2, V5
nop; nop; cmp_eq.i32 VP1, V0, 0x0; nop
nop; nop; mov.i32 V6, 0x7, VP1; nop
nop; add.i32 b00001 I2, 0x40, I2; nop; nop
ld_tnsr V7, 0x0, I2; nop; nop; nop
halt
nop
nop
nop
