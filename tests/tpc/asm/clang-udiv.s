// Integer division in tpc-clang -S form: one instruction per line, the
// compiler's %-registers, and its NOP padding (at least 6 instructions
// between two udiv_4step, TPCLatencyResolver).  The sequence is the one the
// vendor's CodeGen tests check for `udiv i32` / `urem i32` on Gaudi
// (CHECK-GAUDI: mov.u32 %S, 0x0; mov %S, %S; udiv_4step.u32 0x1f %Z, %S ...
// 0x3): quotient half cleared, dividend in the remainder half.
// By hand: 4000000000 = 7 * 571428571 + 3.
//@ srf 0=4000000000 1=7
//@ expect S3=571428571 S2=3
	mov.u32	%S3, 0x0
	mov.u32	%S2, %S0
	udiv_4step.u32	0x1f %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0x1b %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0x17 %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0x13 %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0xf %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0xb %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0x7 %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	udiv_4step.u32	0x3 %Z2, %S1
	nop
	nop
	nop
	nop
	nop
	nop
	halt
