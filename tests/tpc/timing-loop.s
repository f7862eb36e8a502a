// Timing model and LOOP (docs/timing.rst): a loop-carried dependence.
// Loop 1: body of one bundle `S2 += 1`, 4 iterations (0..3 < 4).  Each
// iteration reads the S2 the previous one wrote one cycle before; an SPU
// integer result needs 4 (E3 -> D2/E3).
//   interlocked: LOOP 0, delay slot 1, body 2, 6, 10, 14 (stalls 3 x 3)
// Loop 2: the same with three NOPs in the body (4 bundles per iteration):
// the distance is exactly 4, no stall.  LOOP 15, delay 16, body 17..28.
// halt 29: CYCLES 30, stalls 9; bundles 1+1+4 + 1+1+12 + 1 = 21.
//   exposed: no stalls (CYCLES 21); iterations 2..4 of loop 1 all read the
//   S2 from before the first write still in flight (0), so S2 ends 1, not 4.
//@ timing functional interlocked exposed
//@ expect S3=3
//@ expect bundles 21
//@ expect@functional S2=4
//@ expect@functional cycles 21
//@ expect@functional hazards 0
//@ expect@interlocked S2=4
//@ expect@interlocked cycles 30
//@ expect@interlocked stalls 9
//@ expect@interlocked hazards 3
//@ expect@exposed S2=1
//@ expect@exposed cycles 21
//@ expect@exposed stalls 0
//@ expect@exposed hazards 3
loop S0, 0x4, 1, <, End1
nop
nop; add.i32 S2, S2, 0x1; nop; nop
End1:
loop S0, 0x3, 1, <, End2
nop
nop; add.i32 S3, S3, 0x1; nop; nop
nop
nop
nop
End2:
halt
nop
nop
nop
