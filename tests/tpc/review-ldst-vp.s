// Review of tpc.md §9 item 5 with §5.0.1 / §10 item 6: load- and store-slot
// vector instructions test a VPRF predicate per byte (E = 1) even on 4-byte
// data, while the VPU tests bit i*E per lane.  VP2 = 0x03030303 in every
// section (mov VPd, Ss: all 8 sections, §5.1.1), i.e. VPRF bit b is set iff
// b % 8 < 2 (image layout §1.1).  For an i32 lane i (bytes 4i..4i+3):
//   per byte: even lanes take bytes 0,1 only, odd lanes nothing;
//   per lane (VPU, bit 4i): even lanes whole, odd lanes nothing.
// Income -1 everywhere, memory words 0x11111111.. / 0xAABBCCDD.
//@ srf 1=0x03030303 2=0xFFFFFFFF 3=0xAABBCCDD
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ tensor 2 0x202000 2 64
//@ mem 0x200000 i32 0x11111111 0x22222222 0x33333333 0x44444444
//@ mem 0x201000 i32 -1 -1 -1 -1
//@ mem 0x202000 u32 0x55555555
//@ expect V1.u32[0]=0xFFFF1111 V1.u32[1]=0xFFFFFFFF V1.u32[2]=0xFFFF3333
//@ expect V1.u32[3]=0xFFFFFFFF V1.u32[62]=0xFFFF0000 V1.u32[63]=0xFFFFFFFF
//@ expect V2.u32[0]=5 V2.u32[1]=0xFFFFFFFF V2.u32[2]=5 V2.u32[63]=0xFFFFFFFF
//@ expect V4.u32[0]=0xFFFF5555 V4.u32[1]=0xFFFFFFFF V4.u32[62]=0xFFFF5555
//@ expect mem 0x201000 u32 0xFFFFCCDD 0xFFFFFFFF 0xFFFFCCDD 0xFFFFFFFF
nop; nop; mov.i32 V1, S2; nop
nop; nop; mov.i32 V2, S2; nop
nop; nop; mov.i32 V3, S3; nop
nop; nop; mov.i32 V4, S2; nop
nop; nop; mov VP2, S1; nop
ld_tnsr V1, 0x0, I2, VP2; nop; nop; nop
nop; nop; mov.i32 V2, 0x5, VP2; nop
nop; nop; nop; st_tnsr 0x1, I2, V3, VP2
gen_addr AD1, 0x2, I2; nop; nop; nop
ld_g V4, AD1, VP2; nop; nop; nop
halt
nop
nop
nop
