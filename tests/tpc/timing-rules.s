// Timing model: the vendor's scheduling rules beyond read-after-write
// (TPC_WAW / TPC_SEQ in target/tpc/timing.def, docs/timing.rst):
//   b0 -> b1   ld_tnsr VP1, then the VPU writes VP1 1 cycle later: a load
//              to a VPRF and a VPU write of it need 3 (WAW)
//   b2 -> b5   the same 3 apart: allowed
//   b6 -> b7   mac.f32 V5, then mov V5 the next cycle: Gaudi allows no
//              write of a float MAC/MUL's destination in the next cycle (2)
//   b8 -> b12  ld_tnsr exactly 4 cycles after st_tnsr: not allowed (NOT 4)
//   b13 -> b14 ld_tnsr_low, then ld_tnsr_high in the next bundle: one
//              bundle must separate them (2)
// 4 broken rules = 4 hazards in both timed modes.  Interlocked waits until
// each holds: b0 0, b1 3 (2), b2..b6 4..8, b7 10 (1), b8..b11 11..14,
// b12 16 (1: 15 would be exactly 4), b13 17, b14 19 (1), halt 20:
// CYCLES 21, stalls 5.  Exposed does not stall and keeps the functional
// results (silicon's are undefined; the vendor's compiler never emits
// these).  Memory costs nothing here (gmem 0 0).
//@ timing functional interlocked exposed
//@ gmem 0 0
//@ srf 2=0x40000000
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 64
//@ mem 0x200000 i32 10 11
//@ expect VP1.b[0]=1 VP2.b[0]=1 V5.i32[*]=1 V7.i32[0]=10 V7.i32[1]=11
//@ expect bundles 16
//@ expect@functional cycles 16
//@ expect@interlocked cycles 21
//@ expect@interlocked stalls 5
//@ expect@interlocked hazards 4
//@ expect@exposed cycles 16
//@ expect@exposed stalls 0
//@ expect@exposed hazards 4
ld_tnsr VP1, 0x0, I0; nop; nop; nop
nop; nop; cmp_eq.i32 VP1, V0, 0x0; nop
ld_tnsr VP2, 0x0, I0; nop; nop; nop
nop
nop
nop; nop; cmp_eq.i32 VP2, V0, 0x0; nop
nop; nop; mac.f32 V5, V0, S2; nop
nop; nop; mov.i32 V5, 0x1; nop
nop; nop; nop; st_tnsr 0x1, I0, V6
nop
nop
nop
ld_tnsr V7, 0x0, I0; nop; nop; nop
ld_tnsr_low V8, 0x0, I0; nop; nop; nop
ld_tnsr_high V9, 0x0, I0; nop; nop; nop
halt
nop
nop
nop
