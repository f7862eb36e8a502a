/*
 * Switch names and positions per switch set (tpc.md §5, §8.7), and the
 * spelling tables shared by the assembler and the disassembler.
 */
#include "target/tpc/asm.h"

const char *const tpc_type_suffix[TPC_T_COUNT] = {"f32", "bf16", "i32", "u32", "i8",
                                                  "u8",  "b",    "i16", "u16"};
const char *const tpc_target_type_name[TPC_T_COUNT] = {"fp32",  "bf16", "int32", "uint32", "int8",
                                                       "uint8", NULL,   "int16", "uint16"};
const char *const tpc_round_name[8] = {"rhne", "rz", "ru", "rd", "sr", NULL, "rhaz", NULL};
const char *const tpc_loop_cmp_name[6] = {">", ">=", "<", "<=", "==", "!="};

#define SLOT(s) (1u << TPC_SLOT_##s)

static const TpcSwVal v_target[] = {
    {"fp32", 0}, {"f32", 0},    {"bf16", 1}, {"int32", 2}, {"i32", 2}, {"uint32", 3},
    {"u32", 3},  {"int8", 4},   {"i8", 4},   {"uint8", 5}, {"u8", 5},  {"int16", 7},
    {"i16", 7},  {"uint16", 8}, {"u16", 8},  {NULL, 0},
};
static const TpcSwVal v_round[] = {
    {"rhne", 0}, {"rne", 0},     {"rz", 1},   {"ru", 2}, {"rd", 3},
    {"sr", 4},   {"default", 5}, {"rhaz", 6}, {NULL, 0},
};
static const TpcSwVal v_lanes[] = {{"all_lanes", 0}, {"single_lane", 1}, {NULL, 0}};
static const TpcSwVal v_group[] = {{"group_0", 0}, {"group_1", 1}, {NULL, 0}};
static const TpcSwVal v_stride[] = {
    {"stride_2", 0}, {"stride_4", 1}, {"2", 0}, {"4", 1}, {NULL, 0}};
static const TpcSwVal v_half[] = {{"group_half_0", 0}, {"group_half_1", 1}, {NULL, 0}};

static const TpcSwDef sw_mac[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false},
    {"neg", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_mul_spu[] = {
    {"upper32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_mul_vpu[] = {
    {"double_and_round32", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_add[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false},
    {"carry", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_sub[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false},
    {"neg", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_cmp_eq[] = {
    {"mask_eq_zero", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_ash[] = {
    {"rhu", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_convert[] = {
    {"target_type", NULL, TPC_SWF_B, 0, 4, 0, v_target, false},
    {"rm", "round_mode", TPC_SWF_SW, 0, 3, 0, v_round, false},
    {"lane_sel", NULL, TPC_SWF_B, 4, 2, SLOT(VPU), NULL, true},
    {"num_lanes", NULL, TPC_SWF_B, 6, 1, SLOT(VPU), v_lanes, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_pack[] = {
    {"source_group", NULL, TPC_SWF_B, 0, 1, 0, v_group, true},
    {"element_stride", NULL, TPC_SWF_B, 1, 1, 0, v_stride, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_unpack[] = {
    {"source_group", NULL, TPC_SWF_B, 0, 1, 0, v_group, true},
    {"element_stride", NULL, TPC_SWF_B, 1, 1, 0, v_stride, false},
    {"group_half", NULL, TPC_SWF_B, 2, 1, 0, v_half, true},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
/* mov_dg: the single form's fields and the .all form's fields overlap in B;
 * the assembler checks that only one form's keys are used. */
static const TpcSwDef sw_mov_dg[] = {
    {"all", NULL, TPC_SWF_SW, 0, 2, 0, NULL, false},
    {"src", "src_dual_group", TPC_SWF_B, 0, 2, 0, NULL, true},
    {"dst", "dst_dual_group", TPC_SWF_B, 2, 2, 0, NULL, true},
    {"wr_lg", "wr_lower_group", TPC_SWF_B, 4, 1, 0, NULL, true},
    {"wr_ug", "wr_upper_group", TPC_SWF_B, 5, 1, 0, NULL, true},
    {"sdg0", NULL, TPC_SWF_B, 0, 2, 0, NULL, true},
    {"sdg1", NULL, TPC_SWF_B, 2, 2, 0, NULL, true},
    {"sdg2", NULL, TPC_SWF_B, 4, 2, 0, NULL, true},
    {"sdg3", NULL, TPC_SWF_B, 6, 2, 0, NULL, true},
    {"weg0", NULL, TPC_SWF_C, 0, 2, 0, NULL, true},
    {"weg1", NULL, TPC_SWF_C, 2, 2, 0, NULL, true},
    {"weg2", NULL, TPC_SWF_C, 4, 2, 0, NULL, true},
    {"weg3", NULL, TPC_SWF_C, 6, 2, 0, NULL, true},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_mov_g[] = {
    {"g_en", "group_en", TPC_SWF_B, 0, 2, 0, NULL, true},
    {"dg_en", "dual_group_en", TPC_SWF_B, 2, 4, 0, NULL, true},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_mmio[] = {
    {"mmio", NULL, TPC_SWF_B, 0, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_ld_tnsr[] = {
    {"partial", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_st_tnsr[] = {
    {"partial", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false},
    {"rmw_sel", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false},
    {"pack", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};
static const TpcSwDef sw_aso[] = {
    {"dec", NULL, TPC_SWF_A, 0, 1, 0, NULL, false},
    {"vpu", NULL, TPC_SWF_A, 1, 1, 0, NULL, false},
    {NULL, NULL, 0, 0, 0, 0, NULL, false},
};

const TpcSwDef *tpc_sws_table(unsigned sws)
{
    static const TpcSwDef *const tab[TPC_SWS_COUNT] = {
        [TPC_SWS_MAC] = sw_mac,         [TPC_SWS_MUL_SPU] = sw_mul_spu,
        [TPC_SWS_MUL_VPU] = sw_mul_vpu, [TPC_SWS_ADD] = sw_add,
        [TPC_SWS_SUB] = sw_sub,         [TPC_SWS_CMP_EQ] = sw_cmp_eq,
        [TPC_SWS_ASH] = sw_ash,         [TPC_SWS_CONVERT] = sw_convert,
        [TPC_SWS_PACK] = sw_pack,       [TPC_SWS_UNPACK] = sw_unpack,
        [TPC_SWS_MOV_DG] = sw_mov_dg,   [TPC_SWS_MOV_G] = sw_mov_g,
        [TPC_SWS_MMIO] = sw_mmio,       [TPC_SWS_LD_TNSR] = sw_ld_tnsr,
        [TPC_SWS_ST_TNSR] = sw_st_tnsr, [TPC_SWS_ASO] = sw_aso,
    };
    return sws < TPC_SWS_COUNT ? tab[sws] : NULL;
}
