// Fast-path review (tpc-fastreview): the tensor id taken from S27 (loads)
// or S28 (stores) (tpc.md §5.1, §5.4: SW bit 3; the B field, 0 for loads
// and 28 for stores as the toolchain emits them, is ignored) is not a fast
// form, and the ids must not be mixed up with the B field (28 & 15 = 12).
// T0 = 100s, T1 = 101s, T2 the destination, T12 a decoy destination.
// S27 = 1, S28 = 2: V1 = 101 (tensor 1); the store writes T2, not T12 or
// T0; a plain ld_tnsr of T0 still gives 100; then S27 = 0 and the same
// decoded load bundle, run in the second iteration of a loop, reads T0.
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ tensor 2 0x202000 2 64
//@ tensor 12 0x20C000 2 64
//@ mem 0x200000 i32 100 100
//@ mem 0x201000 i32 101 101
//@ srf 27=1 28=2
//@ expect V1.i32[0]=101 V2.i32[0]=100 V3.i32[0]=100
//@ expect mem 0x202000 i32 101 101
//@ expect mem 0x20C000 i32 0 0
//@ expect mem 0x200000 i32 100 100
ld_tnsr V1, S27, I2; nop; nop; nop
nop; nop; nop; st_tnsr S28, I2, V1
ld_tnsr V2, 0x0, I2; nop; nop; nop
loop 0x0, 0x2, 1, <, End
nop
ld_tnsr V3, S27, I2; nop; nop; nop
nop; mov.i32 S27, 0x0; nop; nop
End:
halt
nop
nop
nop
