// Timing model, global memory (docs/timing.rst "Memory"), a memory-bound
// kernel with the default port (/tpcs nxemu,gmem-latency-cycles 0,
// nxemu,gmem-bytes-per-cycle 64): each ld_tnsr/st_tnsr moves 256 bytes and
// holds the port for 256 / 64 = 4 cycles, so back-to-back accesses wait.
//   b0 ld_tnsr  issue 0, port busy until 4
//   b1 ld_tnsr  ready at 1, waits 3: issue 4, port until 8
//   b2 st_tnsr  ready at 5, waits 3: issue 8, port until 12
//   b3 st_tnsr  ready at 9, waits 3: issue 12, port until 16
//   b4 halt     13: CYCLES 14, 9 stall cycles, all memory, in both timed modes.
// No register is read before its distance (the stores read V1/V2 8 cycles
// after their loads; E3 -> E6 needs 1), so exposed computes the same.
// timing-mem-hidden.s does the same accesses between independent VPU work.
//@ timing functional interlocked exposed
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 64
//@ mem 0x200000 i32 10 11
//@ expect V1.i32[0]=10 V2.i32[1]=11
//@ expect mem 0x300000 i32 10 11
//@ expect bundles 5
//@ expect hazards 0
//@ expect@functional cycles 5
//@ expect@functional stalls 0
//@ expect@interlocked cycles 14
//@ expect@interlocked stalls 9
//@ expect@interlocked memstalls 9
//@ expect@interlocked bytes 1024
//@ expect@exposed cycles 14
//@ expect@exposed stalls 9
//@ expect@exposed memstalls 9
//@ expect@exposed bytes 1024
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
nop; nop; nop; st_tnsr 0x1, I2, V2
halt
nop
nop
nop
