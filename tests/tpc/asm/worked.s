// tpc.md §4.5 worked examples (a)..(d); worked.hex holds their bytes.
ld_tnsr V1, 0x2, I2, SP1; add.i32 b00001 I2, 0x40, I2; add.f32 V3, V1, V2, !VP5; st_tnsr 0x3, I3, V4, SP1
ld_l mmio S1, S2; nop; mac.bf16 acc_fp32 D6, V1, V2; nop
nop; add.i32 S5, S1, 0x7b, !SP3; nop; nop
loop S1, 0x10, -2, >=, End1, SP3
nop                     // delay slot
nop                     // body
End1:
halt
nop
nop
nop
