// Compiler output run end to end (tpc-clang-s).  The kernel lines between the
// markers are the tpc-clang -S output of HabanaAI/tpc_llvm
// clang/test/RC99/CodeGen/vect-04.c, reconstructed from its CHECK/CHECK-NEXT
// lines (the whole function body; the closing `halt` is the function end the
// CHECK lines stop before).  Source:
//   void main(int dest, int src, unsigned tanhIntervalShift) {
//     short128 absX = *(short128 __local *)src;
//     short128 interval = absX >> tanhIntervalShift;
//     *(short128 __local *)dest = interval;
//   }
// Arguments: dest = 0x1000, src = 0x3f00 (the last vector of a 16 KiB VLM),
// tanhIntervalShift = 4.  The harness prologue fills VLM[src] with
// absX[k] = 2k - 128; the epilogue reads VLM[dest] back into V3.  Expected,
// from the C source: interval[k] = (2k - 128) >> 4 (arithmetic), as u16 bits:
//   k = 0: -128 >> 4 = -8; k = 1: -126 >> 4 = -8; k = 4: -120 >> 4 = -8 (0xfff8);
//   k = 5: -118 >> 4 = -8 (0xfff8); k = 8: -112 >> 4 = -7 (0xfff9);
//   k = 56: -16 >> 4 = -1; k = 63: -2 >> 4 = -1 (0xffff); k = 64: 0;
//   k = 71: 14 >> 4 = 0; k = 72: 16 >> 4 = 1; k = 127: 126 >> 4 = 7.
//@ srf 0=0x1000 1=0x3f00 2=4
//@ expect V3.u16[0]=0xfff8 V3.u16[1]=0xfff8 V3.u16[5]=0xfff8 V3.u16[8]=0xfff9
//@ expect V3.u16[56]=0xffff V3.u16[63]=0xffff V3.u16[64]=0 V3.u16[71]=0
//@ expect V3.u16[72]=1 V3.u16[127]=7
// ---- harness prologue (not compiler output) ----
	mov.i16 %V1, %V_LANE_ID_16
	add.i16 %V1, %V1, %V1
	sub.i16 %V1, %V1, 0x80
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
