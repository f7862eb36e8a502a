// An add_f32 kernel shaped like the Habana custom-kernel example: the
// index space (I0 offset, I1 size, from KERNEL_TID_*) counts 64-element
// vectors along dim 0; each iteration loads both inputs, adds, stores.
// 200 elements: elements 200..255 of the last vector load padding and are
// culled on store (tpc.md §3.4, §7.2).  Bundles: 3 + LOOP + delay slot +
// 4 x 6 body + HALT = 30.
//@ cfg 0x790=0 0x794=4
//@ tensor 0 0x200000 2 200
//@ tensor 1 0x201000 2 200
//@ tensor 2 0x202000 2 200
//@ mem 0x200000 f32 1.0 2.0
//@ mem 0x200318 f32 1.25 7.0
//@ mem 0x201000 f32 10.0 20.0
//@ mem 0x201318 f32 0.5 9.0
//@ mem 0x202320 f32 -1.0 -1.0
//@ expect mem 0x202000 f32 11.0 22.0 0.0
//@ expect mem 0x202318 f32 1.75 16.0 -1.0 -1.0
//@ expect S32=4
//@ expect bundles 30
nop; mov_irf_dim 0x0 S1, I0; nop; nop
nop; mov_irf_dim 0x0 S2, I1; nop; nop
nop; add.i32 S2, S1, S2; nop; nop
loop S1, S2, 0x1, <, End
nop; nop; nop; nop
nop; mul.i32 S3, S32, 0x40; nop; nop
nop; set_indx I2, b00001, S3; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; add.f32 V3, V1, V2; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End:
halt
nop
nop
nop
