// Timing model: the producer/consumer pairs of issue #38 at distance d-1
// (too early: warned, the old value in exposed mode, one stall cycle in
// interlocked mode) and at d (silent, the new value), d computed by hand
// from the vendor's Gaudi stages (docs/timing.rst, target/tpc/timing.def):
//   b0 -> b3, b4 -> b8    add.f32 -> mac.f32 accumulator   E3 vs E1/E4: 4
//   b9 -> b12, b13 -> b17 IRF or -> ld_tnsr index          E3, off the IRF
//                         bypass so read at D2: 3 - 0 + 1 = 4
//   b18 -> b20, b21 -> b24 cmp -> predicate of an IRF op   E2 vs D2/E2: 3
//   b25 -> b26, b27 -> b29 cmp -> not.b SP                 E2 vs E1/E2: 2
//   b30 -> b31, b32 -> b34 cmp -> mov.b VP, SP (VPU)       E2 vs E1/E2: 2
//   b35 -> b36            SPU add -> LD-slot mov V, S      E3 vs E6/E6: 1
//   b37 -> b38            LD-slot mov I -> ld_tnsr index   E1, both on the
//                         IRF bypass, E1/E1: 1
//   b39 -> b40            gen_addr -> ld_g to a vector     E6 vs E6/E3: 1
//   b41 -> b42, b43 -> b45 IRF add -> IRF or               E1, or off the
//                         bypass so read at D2: 1 - 0 + 1 = 2
// Too early: b3, b12, b20, b26, b31, b42 = 6 hazards; interlocked each
// waits one cycle: CYCLES 47 + 6 = 53.  Exposed: b3 accumulates the old V1
// (0.0), b12 loads at the old I2 (coordinate 0: 10), b20 sees the old SP1
// (0: I5 not written), b26 inverts the old SP3 (0: SP4 = 1), b31 copies the
// old SP7 (0: VP2 = 0); b42 ors the old I8 (0).  Every d case and the
// distance-1 pairs see the new value in every mode.  Global memory costs
// nothing here (gmem 0 0): only the register pipeline is timed.
//@ timing functional interlocked exposed
//@ srf 1=1 2=0x40000000
//@ gmem 0 0
//@ tensor 0 0x200000 2 128
//@ mem 0x200000 i32 10 11
//@ expect V2.f32[*]=2.0 V4.i32[0]=11 I6=1,0,0,0,0 SP6=0 VP3.b[0]=1 VP3.b[63]=1
//@ expect V5.i32[*]=7 V6.i32[0]=11 V7.i32[0]=10 I11=1,0,0,0,0
//@ expect bundles 47
//@ expect@functional V1.f32[*]=2.0 V3.i32[0]=11 I5=1,0,0,0,0 SP4=0 VP2.b[0]=1 I9=1,0,0,0,0
//@ expect@functional cycles 47
//@ expect@interlocked V1.f32[*]=2.0 V3.i32[0]=11 I5=1,0,0,0,0 SP4=0 VP2.b[0]=1 I9=1,0,0,0,0
//@ expect@interlocked cycles 53
//@ expect@interlocked stalls 6
//@ expect@interlocked hazards 6
//@ expect@exposed V1.f32[*]=0.0 V3.i32[0]=10 I5=0,0,0,0,0 SP4=1 VP2.b[0]=0 I9=0,0,0,0,0
//@ expect@exposed cycles 47
//@ expect@exposed stalls 0
//@ expect@exposed hazards 6
nop; nop; add.f32 V1, V0, S2; nop
nop
nop
nop; nop; mac.f32 V1, V0, S2; nop
nop; nop; add.f32 V2, V0, S2; nop
nop
nop
nop
nop; nop; mac.f32 V2, V0, S2; nop
nop; or.i32 b00001 I2, 0x1, I2; nop; nop
nop
nop
ld_tnsr V3, 0x0, I2; nop; nop; nop
nop; or.i32 b00001 I3, 0x1, I3; nop; nop
nop
nop
nop
ld_tnsr V4, 0x0, I3; nop; nop; nop
nop; cmp_eq.i32 SP1, S0, 0x0; nop; nop
nop
nop; add.i32 b00001 I5, 0x1, I5, SP1; nop; nop
nop; cmp_eq.i32 SP2, S0, 0x0; nop; nop
nop
nop
nop; add.i32 b00001 I6, 0x1, I6, SP2; nop; nop
nop; cmp_eq.i32 SP3, S0, 0x0; nop; nop
nop; not.b SP4, SP3; nop; nop
nop; cmp_eq.i32 SP5, S0, 0x0; nop; nop
nop
nop; not.b SP6, SP5; nop; nop
nop; cmp_eq.i32 SP7, S0, 0x0; nop; nop
nop; nop; mov.b VP2, SP7; nop
nop; cmp_eq.i32 SP8, S0, 0x0; nop; nop
nop
nop; nop; mov.b VP3, SP8; nop
nop; add.i32 S5, S0, 0x7; nop; nop
mov.i32 V5, S5; nop; nop; nop
mov b00001 I7, S1; nop; nop; nop
ld_tnsr V6, 0x0, I7; nop; nop; nop
gen_addr AD1, 0x0, I0; nop; nop; nop
ld_g V7, AD1; nop; nop; nop
nop; add.i32 b00001 I8, 0x1, I8; nop; nop
nop; or.i32 b00001 I9, 0x0, I8; nop; nop
nop; add.i32 b00001 I10, 0x1, I10; nop; nop
nop
nop; or.i32 b00001 I11, 0x0, I10; nop; nop
halt
nop
nop
nop
