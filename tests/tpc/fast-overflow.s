// Fast-path review (tpc-fastreview): tensor addresses whose intermediate
// products leave the signed 64-bit range (tpc.md §3.2: off(c) in signed
// 64-bit arithmetic, addr = base + E*off; §10 item 4: strides are i32) must
// wrap modulo 2^64 like the hardware's address adder, not be undefined
// behaviour in the emulator (this file is also run under UBSan with
// halt_on_error).  Tensor 0: i32, dims 0 and 1 valid, size1 = 2^31,
// stride1 = 0x80000000 = -2^31, base 0xFFFFFFFE00200000.  c = (0, 2^31-1):
// E*off = 4*(2^31-1)*(-2^31) = -2^64 + 2^33, so addr = base + 2^33 mod 2^64
// = 0x200000 (0x41, 0x42).  The fast path (c0 = 0 of 64, in bounds), the
// general path (a VPRF predicate) and GEN_ADDR must all agree; a store at
// the same coordinate writes 0x200000.
//@ cfg 0x400=0x00200000 0x404=0xFFFFFFFE 0x408=0 0x40C=0x302
//@ cfg 0x410=64 0x414=1 0x418=0x80000000 0x41C=0x80000000
//@ srf 1=0x7FFFFFFF
//@ mem 0x200000 i32 0x41 0x42
//@ expect V1.i32[0]=0x41 V1.i32[1]=0x42 V1.i32[2]=0
//@ expect V2.i32[0]=0x41 V2.i32[1]=0x42 V2.i32[2]=0
//@ expect AD1=0x200000
//@ expect mem 0x200000 i32 0x9 0x9
nop; set_indx I2, b00010, S1; nop; nop
nop; nop; cmp_eq.i32 VP1, V0, V0; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I2, VP1; nop; mov.i32 V3, 0x9; nop
gen_addr AD1, 0x0, I2; nop; nop; st_tnsr 0x0, I2, V3
halt
nop
nop
nop
