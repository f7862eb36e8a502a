// Review of tpc.md §10 item 2 (§9 item 27): LD_TNSR_LOW naming a VPRF
// destination faults ILLEGAL_OPERAND (code 2) at the bundle's PC with
// FAULT_ADDR 0, and the bundle has no effect (its SPU add is not done).
//@ tensor 0 0x200000 2 64
//@ expect fault 2 0x20 0x0
//@ expect S2=1 S3=0
//@ expect bundles 1
nop; add.i32 S2, S2, 0x1; nop; nop
// ld_tnsr_low VP1, 0x0, I2; add.i32 S3, S3, 0x1; nop; nop (hand-encoded,
// the assembler rightly refuses it): SPU add opc 2, A 3, B 127, D 3, type 2;
// VPU NOP 0x3F; LD opc 0x12, A = I2 (130), DEST = VP1 (241), B = t 0;
// ST NOP 0x1F; IMM 1 (§4.1, §4.2).
.long 0x103FE0C2, 0x0001F800, 0x00000000, 0x09788100, 0x0081F000, 0, 0, 0
halt
nop
nop
nop
