// Review of tpc.md §9 item 16 (depth 3 and 4, S34/S35 iterators) and §10
// item 9 (several loops ending on one bundle: innermost checked first),
// §6.3: four nested LOOPs all ending on the same bundle.
//   d=0 S32: 0,1 (<2)   d=1 S33: 0,1 (<2)   d=2 S34: 0,1,2 (<3)
//   d=3 S35: 10,9 (>8, step -1)
// Innermost body runs 2*2*3*2 = 24 times; sum of S35 = 12*(10+9) = 228;
// sum of S34 = 2*2*2*(0+1+2) = 24.  Final iterators: S32 = 2, S33 = 2,
// S34 = 3, S35 = 8.  Bundles (§10 item 14): innermost instance 2 + 2*3 = 8,
// d=2: 2 + 3*8 = 26, d=1: 2 + 2*26 = 54, d=0: 2 + 2*54 = 110, + HALT = 111.
//@ expect S1=24 S2=228 S3=24 S32=2 S33=2 S34=3 S35=8
//@ expect bundles 111
loop 0, 2, 1, <, End
nop
loop 0, 2, 1, <, End
nop
loop 0, 3, 1, <, End
nop
loop 10, 8, -1, >, End
nop
nop; add.i32 S1, S1, 0x1; nop; nop
nop; add.i32 S2, S2, S35; nop; nop
nop; add.i32 S3, S3, S34; nop; nop
End:
halt
nop
nop
nop
