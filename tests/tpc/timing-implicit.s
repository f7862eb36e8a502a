// Timing model: LD_TNSR reads the tensor id in S27 when written
// `ld_tnsr V, S27, I` (SW3), an operand the instruction does not encode.
// The vendor's Gaudi latency from any producer to it is 7 (docs/timing.rst).
//   b0 -> b6   mov S27 = 1, then ld_tnsr from tensor S27 6 cycles later:
//              too early; exposed mode loads from the old S27 (0: tensor 0)
//   b7 -> b14  mov S27 = 0, then ld_tnsr 7 later: tensor 0 in every mode
// Interlocked: b6 waits one cycle: CYCLES 17, 1 stall.
//@ timing functional interlocked exposed
//@ gmem 0 0
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 128
//@ mem 0x200000 i32 10 11
//@ mem 0x300000 i32 20 21
//@ expect V2.i32[0]=10 V2.i32[1]=11 S27=0
//@ expect bundles 16
//@ expect@functional V1.i32[0]=20 V1.i32[1]=21
//@ expect@functional cycles 16
//@ expect@interlocked V1.i32[0]=20 V1.i32[1]=21
//@ expect@interlocked cycles 17
//@ expect@interlocked stalls 1
//@ expect@interlocked hazards 1
//@ expect@exposed V1.i32[0]=10 V1.i32[1]=11
//@ expect@exposed cycles 16
//@ expect@exposed hazards 1
nop; mov.i32 S27, 0x1; nop; nop
nop
nop
nop
nop
nop
ld_tnsr V1, S27, I0; nop; nop; nop
nop; mov.i32 S27, 0x0; nop; nop
nop
nop
nop
nop
nop
nop
ld_tnsr V2, S27, I0; nop; nop; nop
halt
nop
nop
nop
