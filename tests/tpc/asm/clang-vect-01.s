// Compiler output run end to end (tpc-clang-s).  The kernel lines between the
// markers are the tpc-clang -S output of HabanaAI/tpc_llvm
// clang/test/RC99/CodeGen/vect-01.c, reconstructed from its CHECK/CHECK-NEXT
// lines (the whole function body; the closing `halt` is the function end the
// CHECK lines stop before).  Source:
//   void main(int dest, int src, short tanhIntervalShift) {
//     short128 absX = *(short128 __local *)src;
//     short128 interval = absX >> tanhIntervalShift;
//     *(short128 __local *)dest = interval;
//   }
// The compiler printed the two-part VLM address of its default target
// (`%S1, 0x0`); Gaudi's single-register address is the same with offset 0.
//
// Arguments: dest = 0x200, src = 0x100, tanhIntervalShift = 3.  The harness
// prologue fills VLM[src] with absX[k] = k - 64; the epilogue reads VLM[dest]
// back into V3.  Expected, from the C source: interval[k] = (k - 64) >> 3
// (arithmetic shift, rounds toward minus infinity), as u16 bits:
//   k = 0..7: -64..-57 >> 3 = -8 (0xfff8); k = 56..63: -8..-1 >> 3 = -1 (0xffff);
//   k = 64..71: 0; k = 72: 1; k = 127: 63 >> 3 = 7.
//@ srf 0=0x200 1=0x100 2=3
//@ expect V3.u16[0]=0xfff8 V3.u16[7]=0xfff8 V3.u16[8]=0xfff9 V3.u16[55]=0xfffe
//@ expect V3.u16[56]=0xffff V3.u16[63]=0xffff V3.u16[64]=0 V3.u16[71]=0
//@ expect V3.u16[72]=1 V3.u16[127]=7
//@ expect V0.u16[0]=0xfff8 V0.u16[64]=0 V0.u16[127]=7
//@ expect S1=0xfffffffd
// ---- harness prologue (not compiler output) ----
	mov.i16 %V1, %V_LANE_ID_16
	sub.i16 %V1, %V1, 0x40
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
