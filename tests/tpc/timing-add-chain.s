// Timing model: a loop of 8 dependent add.f32 (V1 += 1.0), 4 trips, so 32
// adds in one chain, the last of a trip feeding the first of the next.
// Gaudi's float ADD writes at E3 and a VPU source reads at D2 / E3: each
// add needs 4 cycles after the one before (docs/timing.rst), so in
// interlocked mode the chain costs 4 cycles per add:
//   LOOP 0, delay slot 1, add 0 at 2, add k at 2 + 4k, add 31 at 126,
//   halt 127: CYCLES 128, stalls 31 x 3 = 93; bundles 1 + 1 + 32 + 1 = 35.
// Exposed (no stalls): add k sees the V1 of add k - 4 (the newest write 4
// or more cycles old), so V1 ends (31 / 4) + 1 = 8.0, and every add after
// the first reads too early: 31 hazards.
//@ timing functional interlocked exposed
//@ srf 1=0x3f800000
//@ expect bundles 35
//@ expect@functional V1.f32[*]=32.0
//@ expect@functional cycles 35
//@ expect@interlocked V1.f32[*]=32.0
//@ expect@interlocked cycles 128
//@ expect@interlocked stalls 93
//@ expect@interlocked hazards 31
//@ expect@exposed V1.f32[*]=8.0
//@ expect@exposed cycles 35
//@ expect@exposed hazards 31
loop 0, 4, 1, <, End
nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
nop; nop; add.f32 V1, V1, S1; nop
End:
halt
nop
nop
nop
