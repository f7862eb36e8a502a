// Gaudi forms the vendor toolchain accepts beyond tpc.md's first subset
// (tpc.md §5.1, §5.0.5, §5.3 as amended in docs/tpc-isa.rst):
// VPRF halves in VLM (bytes 0..15 / 16..31 of the 32-byte image), shifts on
// index registers, mov Sd, PC (the bundle's byte offset), ash on floats
// (a * 2^b).  By hand: 16 << 2 = 64, 16 >> 3 = 2, a count >= 32 gives 0;
// the mov bundles are bundles 9 and 10 (PC 0x120, 0x140); 1.5 * 2^3 = 12,
// 1.5 * 2^-1 = 0.75, bf16 1.5 * 2^2 = 6.
//@ srf 2=0x100 3=0xFFFFFFFF 4=0x200 5=3 6=0x3FC00000 7=0x3FC0
//@ expect VP3.b[0]=1 VP3.b[127]=1 VP3.b[128]=0 VP3.b[255]=0
//@ expect VP4.b[0]=0 VP4.b[127]=0 VP4.b[128]=1 VP4.b[255]=1
//@ expect VP5.b[0]=1 VP5.b[127]=1 VP5.b[128]=0 VP5.b[255]=0
//@ expect I5=64,0,64,0,0 I3=2,2,2,2,2 I4=0,0,0,0,0
//@ expect S10=0x120 S11=0x140
//@ expect V2.u32[*]=0x41400000 V3.u32[*]=0x3F400000 V4.u16[*]=0x40C0
nop; nop; mov VP1, S3; nop
nop; nop; nop; st_l_v_low S2, VP1
ld_l_v VP3, S2; nop; nop; nop
ld_l_v_high VP4, S2; nop; nop; nop
nop; nop; nop; st_l_v_high S4, VP4
ld_l_v_low VP5, S4; nop; nop; nop
nop; set_indx I2, b11111, 0x10; nop; nop
nop; shl.i32 b00101 I5, I2, 0x2; nop; nop
nop; shr.i32 b11111 I3, I2, S5; nop; nop
nop; mov S10, PC; nop; nop
mov S11, PC; nop; nop; nop
nop; shl.i32 b00010 I4, I2, 0x28; nop; nop
nop; nop; mov.f32 V1, S6; nop
nop; nop; ash.f32 V2, V1, 0x3; nop
nop; nop; ash.f32 V3, V1, 0xff; nop
nop; nop; mov.bf16 V5, S7; nop
nop; nop; ash.bf16 V4, V5, 0x2; nop
halt
nop
nop
nop
