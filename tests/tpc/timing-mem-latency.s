// Timing model, global memory with a calibrated port (docs/timing.rst
// "Memory"): nxemu,gmem-latency-cycles 20, nxemu,gmem-bytes-per-cycle 32,
// so a 256-byte access holds the port 8 cycles and a load bundle waits 20
// cycles for its data, in both timed modes (silicon interlocks memory).
// Interlocked:
//   b0 ld_tnsr V1     ready 0, + 20 latency: issue 20, port until 28
//   b1 add V2, V1     ready 21; V1 needs 4 (E3 -> D2/E3): issue 24 (3)
//   b2 st_tnsr V1     ready 25, port until 28: issue 28 (3), port until 36
//   b3 halt           29: CYCLES 30, stalls 26 (23 memory, 3 V).
// Exposed: b1 issues at 21 and reads V1 before the load (0): V2 = 1; b2
// ready 22 waits 6 for the port: issue 28; halt 29: CYCLES 30, stalls 26
// (all memory), one too-early read.
//@ timing functional interlocked exposed
//@ gmem 20 32
//@ tensor 0 0x200000 2 128
//@ tensor 1 0x300000 2 64
//@ mem 0x200000 i32 10 11
//@ expect V1.i32[0]=10 V1.i32[1]=11
//@ expect mem 0x300000 i32 10 11
//@ expect bundles 4
//@ expect@functional V2.i32[0]=11 V2.i32[1]=12
//@ expect@functional cycles 4
//@ expect@functional hazards 0
//@ expect@interlocked V2.i32[0]=11 V2.i32[1]=12
//@ expect@interlocked cycles 30
//@ expect@interlocked stalls 26
//@ expect@interlocked memstalls 23
//@ expect@interlocked hazards 1
//@ expect@interlocked bytes 512
//@ expect@exposed V2.i32[*]=1
//@ expect@exposed cycles 30
//@ expect@exposed stalls 26
//@ expect@exposed memstalls 26
//@ expect@exposed hazards 1
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.i32 V2, V1, 0x1; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
halt
nop
nop
nop
