// Exact-arithmetic rules (tpc.md §5.0.4, docs/tpc-isa.rst):
// mac.bf16 rounds d + a*b once: a = 1 + 2^-7 (0x3F81), b = 1.5 (0x3FC0),
// a*b = 1.51171875 is half-way between 0x3FC1 and 0x3FC2; d = -2^-133 (bf16
// 0x8001) puts the exact sum just below the tie -> 0x3FC1, d = +2^-133 just
// above -> 0x3FC2, d = 0 the tie itself -> the even 0x3FC2; with neg,
// d - a*b for d = +2^-133 is just inside the tie in magnitude -> 0xBFC1.
// ash with rhu is floor(a / 2^n + 1/2): -5 by 9, 63, 64 and 128 -> 0;
// -6 by 2 -> -1; -7 by 1 -> -3; 5 by 1 -> 3; without rhu -5 >> 64 = -1.
//@ srf 1=0x3F81 2=0x3FC0 3=0x8001 4=0x0001 5=0 6=0x0001 7=0x8001 10=0xFFFFFFFB 11=0xFFFFFFFA 12=0xFFFFFFF9 13=5
//@ expect S3=0x3FC1 S4=0x3FC2 S5=0x3FC2 S6=0xBFC1
//@ expect V3.u16[*]=0x3FC1 V4.u16[*]=0x3FC2
//@ expect S14=0 S15=0 S16=0 S17=0 S18=0xFFFFFFFF S19=0xFFFFFFFF S20=0xFFFFFFFD S21=3
nop; mac.bf16 S3, S1, S2; nop; nop
nop; mac.bf16 S4, S1, S2; nop; nop
nop; mac.bf16 S5, S1, S2; nop; nop
nop; mac.bf16 neg S6, S1, S2; nop; nop
nop; nop; mov.bf16 V1, S1; nop
nop; nop; mov.bf16 V3, S7; nop
nop; nop; mov.bf16 V4, 0x0001; nop
nop; nop; mac.bf16 V3, V1, S2; nop
nop; nop; mac.bf16 V4, V1, S2; nop
nop; ash.i32 rhu S14, S10, 0xf7; nop; nop
nop; ash.i32 rhu S15, S10, 0xc1; nop; nop
nop; ash.i32 rhu S16, S10, 0xc0; nop; nop
nop; ash.i32 rhu S17, S10, 0x80; nop; nop
nop; ash.i32 S18, S10, 0xc0; nop; nop
nop; ash.i32 rhu S19, S11, 0xfe; nop; nop
nop; ash.i32 rhu S20, S12, 0xff; nop; nop
nop; ash.i32 rhu S21, S13, 0xff; nop; nop
halt
nop
nop
nop
