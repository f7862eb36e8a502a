// Timing model against the vendor compiler's schedule (docs/timing.rst).
// The lines between the markers are the tpc-clang -S output of HabanaAI/
// tpc_llvm clang/test/RC99/CodeGen/vect-01.c, as in tests/tpc/asm/
// clang-vect-01.s (see there for the source and the expected values); the
// harness around it is padded with NOPs the way the compiler pads:
//   mov (E3) -> sub SRC_A (D2/E3): 4      sub (E3) -> st_l_v value (D2/E6): 7
//   compiler: mov.i16 S1 -> sub S1: 4; sub -> ash SRC_B from the SRF (E6/E6): 1;
//   ld_l_v (E3) -> ash SRC_A: 6 >= 4; ash (E3) -> st_l_v value: 7.
// A schedule the compiler made must not hazard: zero too-early reads in every
// mode, no stalls, the same results, CYCLES = bundles = 12 + 14 + 2.
// timing-vendor-nop.s is this file with one NOP removed.
//@ timing functional interlocked exposed
//@ srf 0=0x200 1=0x100 2=3
//@ expect V3.u16[0]=0xfff8 V3.u16[8]=0xfff9 V3.u16[63]=0xffff V3.u16[64]=0
//@ expect V3.u16[72]=1 V3.u16[127]=7 V0.u16[0]=0xfff8 S1=0xfffffffd
//@ expect bundles 28
//@ expect cycles 28
//@ expect stalls 0
//@ expect hazards 0
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
	nop
	st_l_v %S0, 0x0, %V0
// ---- harness epilogue (not compiler output) ----
	ld_l_v %V3, %S0
	halt
	nop
	nop
	nop
