// Timing model, global memory (docs/timing.rst "Memory"): the accesses of
// timing-mem-bound.s (1024 bytes, default port: 4 cycles per 256 bytes),
// each followed by three independent VPU bundles.  Every access finds the
// port free (b0 0, b4 4, b8 8, b12 12): no stall, CYCLES = 14 bundles in
// every mode, the same cycles the memory-bound kernel needs for 5 bundles.
//@ timing functional interlocked exposed
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 64
//@ mem 0x200000 i32 10 11
//@ expect V1.i32[0]=10 V2.i32[1]=11 V3.i32[*]=1 V11.i32[*]=9
//@ expect mem 0x300000 i32 10 11
//@ expect bundles 14
//@ expect cycles 14
//@ expect stalls 0
//@ expect hazards 0
//@ expect@interlocked memstalls 0
//@ expect@interlocked bytes 1024
//@ expect@exposed memstalls 0
//@ expect@exposed bytes 1024
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; mov.i32 V3, 0x1; nop
nop; nop; mov.i32 V4, 0x2; nop
nop; nop; mov.i32 V5, 0x3; nop
ld_tnsr V2, 0x0, I2; nop; nop; nop
nop; nop; mov.i32 V6, 0x4; nop
nop; nop; mov.i32 V7, 0x5; nop
nop; nop; mov.i32 V8, 0x6; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
nop; nop; mov.i32 V9, 0x7; nop
nop; nop; mov.i32 V10, 0x8; nop
nop; nop; mov.i32 V11, 0x9; nop
nop; nop; nop; st_tnsr 0x1, I2, V2
halt
nop
nop
nop
