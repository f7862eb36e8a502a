// Vendor-syntax conformance (tpc.md §8): input spellings the tpc-llvm assembler
// accepts and the text its disassembler prints for them, taken as facts from
// the assembler tests of HabanaAI/tpc_llvm (clang/test/RC99/asm/...).  The
// inputs are our own; each line names the vendor test whose behaviour it pins.
// vendor-syntax.expect holds the expected disassembly (tpc.md §8.2 printing).
        .text
        .globl main
main:
nop; udiv_4step.u32 5 S4, S1; nop; nop                             // compare/udiv_4step (gaudi)
nop; udiv_4step.u16 6 S4, S1, SP1; nop; nop                        // compare/udiv_4step (gaudi)
nop; udiv_4step.u8 24 Z0, S1, !SP1; nop; nop                       // compare/udiv_4step (gaudi)
NOP; FCLASS.F32 S6, S7, !SP1; NOP; NOP                             // compare/fclass-s-02.s
NOP; FCLASS.BF16 S6, S7, SP1; NOP; NOP                             // compare/fclass-s-02.s
NOP; NOP; FCLASS.F32 V6, S7, VP1;  NOP;                            // compare/fclass-v-02.s
NOP; CALC_FP_SPECIAL.F32 FUNC=RSQRT S1, S34, S0, SP15; NOP; NOP;   // compare/calc_fp_special-s-02.s
NOP; CALC_FP_SPECIAL.BF16 FUNC=POW S31, S12, S0; NOP; NOP;         // compare/calc_fp_special-s-02.s
NOP; NOP; CALC_FP_SPECIAL.F32 FUNC=RECIP V1, V2, V0; NOP;          // compare/calc_fp_special-v-02.s
NOP; NOP; CALC_FP_SPECIAL.BF16 FUNC=RECIP V1, V2, V0, !VP1; NOP;   // compare/calc_fp_special-v-02.s
NOP; NOP; FORM_FP_NUM.F32 V2, f32_1.0, V3, V4, VP5; NOP            // compare/form_fp_num-01.s
NOP; NOP; FORM_FP_NUM.F32 V1, V2, V3, V4, EXP_ADD_BIAS, FORCE_SIGN0, EXP_IS_NUM; NOP // compare/form_fp_num-01.s
NOP; NOP; FORM_FP_NUM.F32 V1, V2, V3, V4, EXP_IS_NUM, SIGN_LSB; NOP // compare/form_fp_num-01.s
NOP; NOP; EXTRACT_EXP.F32 V1, F32_8.000000, SP3; NOP;              // compare/extract_exp-v-01.s
NOP; NOP; EXTRACT_EXP.F32 V1, V2, BIASED, !VP3; NOP;               // compare/extract_exp-v-01.s (Gaudi name of bit 0)
NOP; NEARBYINT.F32 S1, S2, RZ; NOP; NOP                            // InstructionDB nearbyint rm (gaudi)
NOP; NOP; GET_LUT_ENTRY_AND_INTERVAL_START.F32 V4, V2, 31, TANH; NOP // compare/get_lut_entry-01.s
NOP; NOP; GET_LUT_ENTRY_AND_INTERVAL_START.F32 V4, V2, 4; NOP      // compare/get_lut_entry-01.s
LOOKUP_1C BV32 V1, V0, 0x1; NOP; NOP; NOP                          // CodeGen lookup_1c (gaudi form)
LOOKUP_2C BV16 UPPER_HALF D2, V5, 0x11a, SP2; NOP; NOP; NOP        // InstructionDB lookup dt/upper_half
NOP; CONVERT_INT32 S6, S12, S8, TO_16, SR, !SP1; NOP; NOP          // compare/convert_int32-s-02.s
NOP; CONVERT_INT32 S6, S12, 123, RD, SP1;  NOP; NOP                // compare/convert_int32-s-02.s
NOP; NOP; CONVERT_INT32 V6, V12, V8, TO_16, LANE_SEL=2, RD;    NOP // compare/convert_int32-v-02.s
NOP; NOP; CONVERT_INT16 V6, V12, V8, LANE_SEL=1, RNE, SP1          // compare/convert_int16-v-02.s
NOP; CONVERT_UINT16 S6, S12, S11, RZ;  NOP; NOP                    // compare/convert_uint16-s-02.s
NOP; NOP; CONVERT_UINT32 V6, V12, S8, TO_16, LANE_SEL=1; NOP       // compare/convert_uint32-v-02.s
NOP; POPCNT.U8 1 S1, S2, !SP3; NOP; NOP                            // compare/popcnt/popcnt-s-01.s
NOP; NOP; POPCNT.BF16 0 V1, V2; NOP                                // compare/popcnt/popcnt-bf16.s
NOP; FIND_FIRST.U16 0 START_MSB S1, S2, SP3; NOP; NOP              // compare/find_first/find_first-s.s
NOP; NOP; FIND_FIRST.I16 SET=1 V1, V2, VP3; NOP                    // InstructionDB find_first set/dir
NOP; BREV.BF16 S1, S2, !SP3; NOP; NOP                              // compare/brev-s-02.s
NOP; NOP; BREV.I8 V1, S2, !VP3                                     // compare/brev-v-02.s
NOP; ADD.U16 S7, S3, u16_300, !SP2                 // compare/add/add-s-common.s
NOP; ADD.I8.SAT S9, S4, S6, SP5                    // compare/add/add-s-common.s
NOP; ADD.I32 b10101 I7, i32_-5, I3                 // compare/add/add-s-common.s
NOP; NOP; ADD.F32 V6, V9, f32_0.5, !VP2            // compare/add/add-v-common.s
NOP; NOP; ADD.I8 V2, V3, i8_-1, VP7                // compare/add/add-v-common.s
NOP; NOP; ADD.I32.SAT V1, V2, S8, !SP4             // compare/add/add-v-common.s
NOP; ABS.I32 b01100 I6, S2, !SP9; NOP; NOP         // compare/abs-s-01.s
NOP; NOP; ABS.I16 V1, V5, !VP4; NOP                // compare/abs-v-01.s
NOP; AND.B SP4, SP6, SP7, !SP1                     // compare/and-s-01.s
NOP; NOP; AND.U16 V10, V11, 0xff00, VP3            // compare/and-v-01.s
NOP; ASH.I16 S2, S3, i8_-7, RHU, SP4               // compare/ash/ash-s.s
NOP; NOP; ASH.U8 V7, V8, S9, RHU, !VP1             // compare/ash/ash-v.s
NOP; NOP; NOP; ASO DEC, VPU, !SP7                  // compare/aso-02.s
NOP; NOP; NOP; ASO SP9                             // compare/aso-01.s
NOP; BREV.U16 S8, S9, !SP2; NOP; NOP               // compare/brev-s-02.s
NOP; NOP; BREV.BF16 V3, S4, VP6                    // compare/brev-v-02.s
NOP; NOP; NOP; CACHE_FLUSH !SP3                    // compare/cache_flush-01.s
NOP; NOP; NOP; CACHE_INVALIDATE SP0                // compare/cache_invalidate-01.s
NOP; CMP_EQ.U16.MASK_EQ_ZERO SP3, S5, 255, !SP6 ; NOP; NOP   // compare/cmp_eq-s-02.s
NOP; NOP; CMP_EQ.I8.MASK_EQ_ZERO VP2, V6, S1, SP5; NOP       // compare/cmp_eq-v-02.s
NOP; CONVERT.F32 S3, S4, UINT8, RD, !SP5; NOP; NOP // compare/convert-s-01.s
nop; convert.i16 S3, S4, INT8; nop; nop            // compare/convert-s-01.s
NOP; CONVERT.F32 S1, S2, INT16, DEFAULT; NOP; NOP  // compare/convert-s-01.s
NOP; CONVERT.I32 S6, S7, BF16, RZ, SP2; NOP; NOP   // compare/convert-s-02.s
NOP; NOP; CONVERT.F32 V5, V6, INT8, LANE_SEL=2, RU, !VP3; NOP   // compare/convert-v-01.s
nop; nop; convert.i16 V4, V9, UINT8, LANE_SEL=1, SP7; nop      // compare/convert-v-01.s
NOP; NOP; CONVERT.I8 V2, V3, INT32, LANE_SEL=0; NOP            // compare/convert-v-01.s
NOP; DBG; NOP; NOP                                 // compare/dbg.s
NOP; NOP; NOP; GEN_ADDR AD3, 9, I12, !SP0          // compare/gen_addr-st-01.s
LD_G SP6, AD2, !SP1; NOP; NOP; NOP                 // compare/ld_g-01.s
LD_L SP2, 64, MMIO, SP4                            // compare/ld_l-01.s
LD_L S9, S10, !SP3                                 // compare/ld_l-01.s
ld_l_v VP5, 256, !VP2                              // compare/ld_l_v-02.s
LD_L_V_HIGH V8, S5, VP1                            // compare/ld_l_v_high-02.s
LD_TNSR VP2, 5, I7, SP0                            // compare/ld_tnsr-01.s
LD_TNSR.PARTIAL VP3, S27, I4, S30, !SP2            // compare/ld_tnsr-02.s
LD_TNSR_HIGH V6, S27, I1, !SP5                     // compare/ld_tnsr_high-02.s
NOP; CMP_EQ.I16 SP2, S3, i16_x7FFF ; NOP; NOP      // compare/literals-01.s
NOP; CMP_EQ.U32 SP2, S3, u32_4000000000 ; NOP; NOP // compare/literals-01.s
NOP; MOV.F32 S4, 2.5e-1                            // compare/literals-01.s
NOP; MOV.F32 S4, .75                               // compare/literals-01.s
NOP; MOV.F32 S4, 3.                                // compare/literals-01.s
NOP; MOV.F32 S4, 2.0BF                             // compare/literals-01.s
NOP; MOV.F32 S4, 0.5h                              // compare/literals-01.s
NOP; MOV.F32 S4, - 2.0e00                          // compare/literals-01.s
NOP; MOV.I32 S4, 100U                              // compare/literals-01.s
NOP; MOV.I32 S4, - 0B110                           // compare/literals-01.s
NOP; MOV.I32 S4, + 0x1F                            // compare/literals-01.s
NOP; MOV.I32 S4, 017                               // compare/literals-01.s
NOP; MOV.I32 S4, - 017                             // compare/literals-01.s
NOP; MAC.I16.SAT S3, S4, 77, !SP6                  // compare/mac-s-01.s
NOP; NOP; MAC.U16 V10, V2, S3, VP4                 // compare/mac-v-01.s
MOV.I16 V3, V9, !SP4                               // compare/mov-ld-01.s
MOV 5 VP3, S8, VP1                                 // compare/mov-ld-01.s
MOV 8 VP3, 0x55                                    // compare/mov-ld-01.s
MOV.U32 SP9, 0                                     // compare/mov-ld-01.s
MOV.U8 V20, S0, VP9                                // compare/mov-ld-01.s
MOV b11000 I9, I2, !SP5                            // compare/mov-ld-01.s
NOP; NOP; MOV.U32 2 VP6, 99, !VP3; NOP             // compare/mov-v-01.s
NOP; NOP; MOV.B VP6, SP2                           // compare/mov-v-01.s
NOP; NOP; MOV 8 VP6, S11, SP3; NOP                 // compare/mov-v-01.s
NOP; MOV.U32 SP4, SP5, !SP6                        // compare/mov-s-01.s
NOP; NOP; MOV_DUAL_GROUP V3, V4, SRC_DUAL_GROUP=2, DST_DUAL_GROUP=3, WR_LOWER_GROUP=1, WR_UPPER_GROUP=0, 0xf0f0, !VP2; NOP   // compare/mov_dg-01.s
nop; nop; mov_dg V3, V4, src=1, dst=1, wr_lg=0, wr_ug=1, 7, SP2; nop   // compare/mov_dg-01.s
NOP; MUL.U32.UPPER32 S1, S2, S3, !SP4              // compare/mul-s-01.s
NOP; MUL.I32 b00110 I1, S2, I3, SP4                // compare/mul-s-01.s
NOP; NOP; MUL.I16 V12, V2, 9, !VP5                 // compare/mul-v-01.s
NOP; NOP; MUL.U32 DOUBLE_AND_ROUND32 V5, V6, S7, VP8   // compare/mul-v-01.s
NOP; NOT.I32 b00001 I2, I3                         // compare/not-s-01.s
NOP; NOP; PACK.U16 V7, V8, GROUP_1, STRIDE_4, !VP5 // compare/pack-01.s
NOP; NOP; UNPACK.I8 V7, V8, GROUP_0, STRIDE_4, GROUP_HALF_1, SP2   // compare/unpack-01.s
PRMT_INDX I5, I6, S7, !SP8; NOP; NOP; NOP          // compare/prmt_indx-ld-01.s
nop; nop; sel_eq.f32 V1, V2, S5, V3, 0x3f800000, !VP4; nop   // compare/sel/sel_eq-common.s
NOP; NOP; SEL2_LEQ.U8 D6, V1, V2, V3, V4, SP9; NOP // compare/sel2/sel2_leq-common.s
NOP; NOP; SHUFFLE.U32 V9, V8, V7, !SP1             // compare/shuffle-01.s
NOP; NOP; NOP; ST_G AD4, SP3, !SP2                 // compare/st_g-01.s
NOP; NOP; NOP; ST_L 0x200, SP1, MMIO, SP2          // compare/st_l-01.s
NOP; NOP; NOP; ST_TNSR 7, I8, VP9, !SP3            // compare/st_tnsr-01.s
NOP; NOP; NOP; ST_TNSR.RMW_SEL.PARTIAL 2, I1, V5, !SP4   // compare st_tnsr (gaudi, PACK/RMW_SEL/PARTIAL)
NOP; NOP; NOP; ST_TNSR S28, I1, V5, S31            // compare st_tnsr (gaudi): implied PARTIAL
NOP; NOP; NOP; ST_TNSR.PACK 3, I2, V6, S29         // compare st_tnsr (gaudi): implied RMW_SEL
NOP; NOP; NOP; ST_TNSR.RMW_SEL S28, I1, V5, SP1    // compare st_tnsr (gaudi): implied S29
NOP; NOP; NOP; ST_TNSR_LOW 4, I2, V3, SP0          // compare/st_tnsr_low-01.s
{                                                  // newFormat/test-01.s
NOP;
NOP
MOV_DUAL_GROUP V9, V10, SRC_DUAL_GROUP=3, DST_DUAL_GROUP=1, WR_LOWER_GROUP=0, WR_UPPER_GROUP=1, 300;
NOP
}
Lj:
nop;jmpr Lj, !SP0; nop; nop                        // compare/jmpr.s
nop; jmpr S9, !SP4; nop; nop                       // compare/jmpr.s
loop 7, S4, 2, ==, LEnd, !SP2                      // compare/loop-01.s
NOP
LEnd:
NOP
loop S5, 9, S6, !=, LEnd2 // comment after the label, compare/loop-01.s
NOP
LEnd2:
halt
nop
nop
nop
