// timing-vendor.s with one NOP removed from the compiler's schedule: the
// st_l_v of the interval now issues 6 cycles after the ash that produced V0
// instead of the 7 an E3 result needs for the st_l_v value (D2/E6).
//   interlocked: one stall cycle, the same results (CYCLES 28, bundles 27);
//   exposed: no stall, and st_l_v stores V0 as it was before the ash, i.e.
//   the loaded absX[k] = k - 64 (u16: k = 0 -> 0xffc0, 72 -> 8, 127 -> 63);
//   one too-early read in both (-tpc-hazard-warn reports it).
//@ timing functional interlocked exposed
//@ srf 0=0x200 1=0x100 2=3
//@ expect V0.u16[0]=0xfff8 S1=0xfffffffd
//@ expect bundles 27
//@ expect@functional V3.u16[0]=0xfff8 V3.u16[72]=1 V3.u16[127]=7
//@ expect@functional cycles 27
//@ expect@functional hazards 0
//@ expect@interlocked V3.u16[0]=0xfff8 V3.u16[72]=1 V3.u16[127]=7
//@ expect@interlocked cycles 28
//@ expect@interlocked stalls 1
//@ expect@interlocked hazards 1
//@ expect@exposed V3.u16[0]=0xffc0 V3.u16[72]=8 V3.u16[127]=63
//@ expect@exposed cycles 27
//@ expect@exposed hazards 1
// ---- harness prologue (not compiler output) ----
	mov.i16 %V1, %V_LANE_ID_16
	nop
	nop
	nop
	sub.i16 %V1, %V1, 0x40
	nop
	nop
	nop
	nop
	nop
	nop
	st_l_v %S1, %V1
// ---- compiler output ----
	ld_l_v %V0, %S1, 0x0
	mov.i16	%S1, 0x0
	nop
	nop
	nop
	sub.i16  %S1, %S1, %S2
	ash.i16  %V0, %V0, %S1
	nop
	nop
	nop
	nop
	nop
	st_l_v %S0, 0x0, %V0
// ---- harness epilogue (not compiler output) ----
	ld_l_v %V3, %S0
	halt
	nop
	nop
	nop
