// Jump and loop restrictions (docs/timing.rst "Jumps and loops", TPC_FLOW
// rows of target/tpc/timing.def): -tpc-hazard-warn names each broken one
// once; none is a hazard or a stall, and no result changes with them.
//   0x000 LOOP, body 0x040..0x060: 2 bundles, the vendor pads to 6
//         (LOOP-BODY).  The body's S2 += 1 reads its own S2 2 cycles
//         later (needs 4): the one RAW hazard, 2 stall cycles interlocked,
//         S2 = 1 exposed (both trips read the S2 before the first write).
//   0x080 LOOP, body 0x0c0..0x1a0 (8 bundles), one trip:
//         0x0c0 jmpr A: 7 bundles of the body after it (>= 6, silent);
//         A = 0x100: 5 after the target (>= 3, silent);
//         0x120 jmpr B: 4 after it (JMP-LOOP-END, needs 6);
//         B = 0x180: 1 after the target (JMP-TARGET, needs 3).
//   0x1c0 jmpr not taken (!SP0), 0x1e0 an SPU add right after (JMP-NEXT);
//   0x200 jmpr not taken, 0x220 a VPU add right after (allowed, silent);
//   0x240 jmpr C taken, C = 0x280 halt 1 bundle after it (JMP-AFTER: at
//         least two bundles between a jump and HALT).
// Bundles: 1+1+2x2 + 1+1+6 + 6 + 1 (halt) = 19.
//@ timing functional interlocked exposed
//@ expect S3=1
//@ expect bundles 19
//@ expect@functional S2=2
//@ expect@functional cycles 19
//@ expect@functional hazards 0
//@ expect@interlocked S2=2
//@ expect@interlocked cycles 21
//@ expect@interlocked stalls 2
//@ expect@interlocked hazards 1
//@ expect@exposed S2=1
//@ expect@exposed cycles 19
//@ expect@exposed stalls 0
//@ expect@exposed hazards 1
loop 0x0, 0x2, 1, <, End1
nop
nop; add.i32 S2, S2, 0x1; nop; nop
nop
End1:
loop 0x0, 0x1, 1, <, End2
nop
nop; jmpr A; nop; nop
nop
A:
nop
nop; jmpr B; nop; nop
nop
nop
B:
nop
nop
End2:
nop; jmpr C, !SP0; nop; nop
nop; add.i32 S3, S3, 0x1; nop; nop
nop; jmpr C, !SP0; nop; nop
nop; nop; add.i32 V1, V2, V3; nop
nop; jmpr C; nop; nop
nop
C:
halt
nop
nop
nop
