// tpc.md §8.3 examples (inputs as written there) and §8.7 vendor input forms.
// examples.expect holds the disassembly tpc-llvm prints for them.
        .text
        .globl main
main:
ld_tnsr V4, 0x0, I3; nop; nop; nop
ld_tnsr.partial V4, S27, I3, S30; nop; nop; nop
ld_l mmio S1, S2, !SP3; nop; nop; nop
ld_l mmio S1, 0x7b, SP3; nop; nop; nop
ld_g V1, AD1; nop; nop; nop
gen_addr AD1, 0x6, I1; nop; nop; nop
set_indx I0, b00010, S35; nop; nop; nop
nop; add.i32 st S5, S1, S2; nop; nop
nop; add.i32 b11011 I5, I4, I2; nop; nop
nop; mov_irf_dim 0x2 S1, I3, SP1; nop; nop
nop; add.i32 S5, S1, i32_-122; nop; nop
L0:
nop; jmpr L0, SP1; nop; nop
loop S1, S3, 123, >, End2
nop                                     // delay slot
nop; nop; mac.f32 neg V5, V1, V2, VP3; nop
End2:
ld_l mmio S1, S2; nop; mac.bf16 acc_fp32 D6, V1, V2; nop
nop; nop; cmp_eq.f32 VP1, V2, S3; nop
nop; nop; sel_eq.i32 V4, V5, 0x7a, V7, V8; nop
nop; nop; convert.f32 target_type=int32 rz V0, V1; nop
nop; nop; unpack.i8 source_group=1 element_stride=4 group_half=1 V1, V2; nop
nop; nop; mov_dg src=1 dst=2 wr_lg=0x1 wr_ug=0x1 V1, V2, 0xffffffff; nop
nop; nop; mov_g g_en=0b0 dg_en=0b1111 V1, V2, 0x20; nop
nop; nop; nop; st_l mmio S1, S2, SP3
nop; nop; nop; st_tnsr 0x0, I3, VP4, !SP1
nop; nop; nop; st_tnsr.rmw_sel 0x1, I3, V4
nop; nop; nop; aso vpu
{
    nop;
    nop;
    convert.f32 V0, V1, INT16, LANE_SEL=1;
    nop
}
nop; nop; unpack.i16 V1, V2, GROUP_0, STRIDE_2, GROUP_HALF_0; nop
nop; nop; mov_dg V1, V2, src=0, dst=0, wr_lg=0, wr_ug=0, 123; nop
nop; nop; mov_g V1, V2, g_en=0, dg_en=15, 32; nop
halt
nop
nop
nop
