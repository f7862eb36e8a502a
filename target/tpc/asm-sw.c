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
/* pack/unpack print `source_group=0 element_stride=2 group_half=0` as the
 * vendor does (the first name of a value is the printed one) */
static const TpcSwVal v_group[] = {{"0", 0}, {"1", 1}, {"group_0", 0}, {"group_1", 1}, {NULL, 0}};
static const TpcSwVal v_stride[] = {
    {"2", 0}, {"4", 1}, {"stride_2", 0}, {"stride_4", 1}, {NULL, 0}};
static const TpcSwVal v_half[] = {
    {"0", 0}, {"1", 1}, {"group_half_0", 0}, {"group_half_1", 1}, {NULL, 0}};

static const TpcSwDef sw_mac[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_INT, 0},
    {"neg", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_BF16, 0},
    {0},
};
static const TpcSwDef sw_mul_spu[] = {
    {"upper32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false, 0, TPC_SWP_WORD, false,
     TPC_TT_I32 | TPC_TT_U32, 0},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_BF16, 0},
    {0},
};
static const TpcSwDef sw_mul_vpu[] = {
    {"double_and_round32", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false,
     TPC_TT_I32 | TPC_TT_U32, 0},
    {"acc_fp32", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_BF16, 0},
    {0},
};
static const TpcSwDef sw_add[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_INT, 0},
    {"carry", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_INT, 0},
    {0},
};
static const TpcSwDef sw_sub[] = {
    {"st", "sat", TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_INT, 0},
    {"neg", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {0},
};
static const TpcSwDef sw_cmp_eq[] = {
    {"mask_eq_zero", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {0},
};
static const TpcSwDef sw_ash[] = {
    /* st: the vendor's format sets it always and prints nothing for it */
    {"st", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false, 1, TPC_SWP_NEVER, false, 0, 0},
    {"rhu", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, TPC_TT_INT, 0},
    {0},
};
static const TpcSwDef sw_convert[] = {
    {"lane_sel", NULL, TPC_SWF_B, 4, 2, SLOT(VPU), NULL, true, 0, TPC_SWP_WORD, false, 0, 0},
    {"num_lanes", NULL, TPC_SWF_B, 6, 1, SLOT(VPU), v_lanes, false, 0, TPC_SWP_LANES, false, 0, 0},
    {"target_type", NULL, TPC_SWF_B, 0, 4, 0, v_target, false, 0, TPC_SWP_ALWAYS, true, 0, 0},
    /* rm: 5 (default, the vendor's when none is written) prints nothing */
    {"rm", "round_mode", TPC_SWF_SW, 0, 3, 0, v_round, false, 5, TPC_SWP_WORD, true, 0, 0},
    {0},
};
static const TpcSwDef sw_pack[] = {
    {"source_group", NULL, TPC_SWF_B, 0, 1, 0, v_group, true, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {"element_stride", NULL, TPC_SWF_B, 1, 1, 0, v_stride, false, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {0},
};
static const TpcSwDef sw_unpack[] = {
    {"source_group", NULL, TPC_SWF_B, 0, 1, 0, v_group, true, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {"element_stride", NULL, TPC_SWF_B, 1, 1, 0, v_stride, false, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {"group_half", NULL, TPC_SWF_B, 2, 1, 0, v_half, true, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {0},
};
/* mov_dg: the single form (variant 0 of MOV_DG) and the .all form (variant
 * 1) share SRC_B; each key exists in one of them (TpcSwDef.vars). */
#define DG(key, alias, field, shift, width, print, vars)                                           \
    {                                                                                              \
        key, alias, field, shift, width, 0, NULL, true, 0, print, false, 0, vars                   \
    }
static const TpcSwDef sw_mov_dg[] = {
    {"all", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_SUFFIX, false, 0, 0},
    DG("src", "src_dual_group", TPC_SWF_B, 0, 2, TPC_SWP_ALWAYS, 1),
    DG("dst", "dst_dual_group", TPC_SWF_B, 2, 2, TPC_SWP_ALWAYS, 1),
    DG("wr_lg", "wr_lower_group", TPC_SWF_B, 4, 1, TPC_SWP_HEX, 1),
    DG("wr_ug", "wr_upper_group", TPC_SWF_B, 5, 1, TPC_SWP_HEX, 1),
    DG("sdg0", NULL, TPC_SWF_B, 0, 2, TPC_SWP_ALWAYS, 2),
    DG("sdg1", NULL, TPC_SWF_B, 2, 2, TPC_SWP_ALWAYS, 2),
    DG("sdg2", NULL, TPC_SWF_B, 4, 2, TPC_SWP_ALWAYS, 2),
    DG("sdg3", NULL, TPC_SWF_B, 6, 2, TPC_SWP_ALWAYS, 2),
    DG("weg0", NULL, TPC_SWF_C, 0, 2, TPC_SWP_ALWAYS, 2),
    DG("weg1", NULL, TPC_SWF_C, 2, 2, TPC_SWP_ALWAYS, 2),
    DG("weg2", NULL, TPC_SWF_C, 4, 2, TPC_SWP_ALWAYS, 2),
    DG("weg3", NULL, TPC_SWF_C, 6, 2, TPC_SWP_ALWAYS, 2),
    {0},
};
static const TpcSwDef sw_mov_g[] = {
    {"g_en", "group_en", TPC_SWF_B, 0, 2, 0, NULL, true, 0, TPC_SWP_BIN, false, 0, 0},
    {"dg_en", "dual_group_en", TPC_SWF_B, 2, 4, 0, NULL, true, 0, TPC_SWP_BIN, false, 0, 0},
    {0},
};
/* mov (insn-forms.def MOV, whose variant numbers `vars` names):
 * from_hw_reg, SWITCHES bit 0, is what `mov Sd, PC` implies (variant 0);
 * the VPRF section 0..7 (8: all) of `mov [k] VPd, Ss|imm` (variants 5, 10) */
static const TpcSwVal v_section[] = {
    {"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"4", 4},
    {"5", 5}, {"6", 6}, {"7", 7}, {"8", 8}, {NULL, 0},
};
static const TpcSwDef sw_mov[] = {
    {"from_hw_reg", NULL, TPC_SWF_SW, 0, 1, SLOT(LD) | SLOT(SPU), NULL, false, 0, TPC_SWP_NEVER,
     false, 0, 1u << 0},
    {"section", NULL, TPC_SWF_B, 0, 4, SLOT(LD) | SLOT(VPU), v_section, true, 8, TPC_SWP_BARE, true,
     0, 1u << 5 | 1u << 10},
    {0},
};
static const TpcSwDef sw_mmio[] = {
    {"mmio", NULL, TPC_SWF_B, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {0},
};
/* partial, rmw_sel: printed as their register operands (S30; S31, S29) */
static const TpcSwDef sw_ld_tnsr[] = {
    {"partial", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_NEVER, false, 0, 0},
    {0},
};
static const TpcSwDef sw_st_tnsr[] = {
    {"partial", NULL, TPC_SWF_SW, 0, 1, 0, NULL, false, 0, TPC_SWP_NEVER, false, 0, 0},
    {"rmw_sel", NULL, TPC_SWF_SW, 1, 1, 0, NULL, false, 0, TPC_SWP_NEVER, false, 0, 0},
    {"pack", NULL, TPC_SWF_SW, 2, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {0},
};
static const TpcSwDef sw_aso[] = {
    {"dec", NULL, TPC_SWF_A, 0, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {"vpu", NULL, TPC_SWF_A, 1, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0},
    {0},
};

/* ---- switch sets of the table-described forms (insn-forms.def) ---- */

#define SW1(key, field, shift)                                                                     \
    {                                                                                              \
        key, NULL, field, shift, 1, 0, NULL, false, 0, TPC_SWP_WORD, false, 0, 0                   \
    }

static const TpcSwDef sw_nearbyint[] = {
    {"rm", "round_mode", TPC_SWF_SW, 0, 3, 0, v_round, false, 5, TPC_SWP_WORD, true, 0, 0},
    {0},
};
static const TpcSwDef sw_extract_exp[] = {
    SW1("biased", TPC_SWF_SW, 0),
    {0},
};
static const TpcSwVal v_func[] = {
    {"recip", 0}, {"rsqrt", 1}, {"sqrt", 2}, {"log", 3}, {"exp", 4},
    {"tanh", 5},  {"div", 6},   {"pow", 7},  {NULL, 0},
};
static const TpcSwDef sw_calc_fp[] = {
    {"func", NULL, TPC_SWF_SW, 0, 3, 0, v_func, false, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {0},
};
static const TpcSwDef sw_form_fp_num[] = {
    SW1("exp_add_bias", TPC_SWF_D, 0), SW1("force_sign0", TPC_SWF_D, 1),
    SW1("force_sign1", TPC_SWF_D, 2),  SW1("exp_is_num", TPC_SWF_D, 3),
    SW1("sign_lsb", TPC_SWF_D, 4),     {0},
};
static const TpcSwVal v_funcid[] = {
    {"tanh", 1}, {"sqrt_rsqrt", 2}, {"sin_cos", 3}, {"log", 4}, {NULL, 0},
};
static const TpcSwDef sw_get_lut[] = {
    {"funcid", NULL, TPC_SWF_B, 5, 3, 0, v_funcid, true, 0, TPC_SWP_TRAIL, false, 0, 0},
    {0},
};
static const TpcSwVal v_dt32[] = {{"BV32", 0}, {NULL, 0}};
static const TpcSwVal v_dt[] = {{"BV32", 0}, {"BV16", 1}, {NULL, 0}};
static const TpcSwDef sw_lookup[] = {
    {"dt", NULL, TPC_SWF_SW, 0, 2, 0, v_dt32, false, 0, TPC_SWP_NAME, true, 0, 0},
    SW1("upper_half", TPC_SWF_SW, 2),
    {0},
};
static const TpcSwDef sw_lookup_c[] = {
    {"dt", NULL, TPC_SWF_SW, 0, 2, 0, v_dt, false, 0, TPC_SWP_NAME, true, 0, 0},
    SW1("upper_half", TPC_SWF_SW, 2),
    {0},
};

static const TpcSwVal v_round_int[] = {
    {"rhne", 0}, {"rne", 0}, {"rz", 1}, {"ru", 2}, {"rd", 3}, {"sr", 4}, {NULL, 0},
};
static const TpcSwVal v_to[] = {{"to_8", 0}, {"to_16", 1}, {NULL, 0}};
static const TpcSwDef sw_cvt_int[] = {
    {"lane_sel", NULL, TPC_SWF_SW, 0, 2, SLOT(VPU), NULL, true, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {"rm", "round_mode", TPC_SWF_T, 0, 3, 0, v_round_int, false, 0, TPC_SWP_NAME, true, 0, 0},
    {"to", NULL, TPC_SWF_T, 3, 1, 0, v_to, false, 0, TPC_SWP_NAME, false, 0, 0},
    {0},
};
static const TpcSwDef sw_cvt_int16[] = {
    {"lane_sel", NULL, TPC_SWF_SW, 0, 2, SLOT(VPU), NULL, true, 0, TPC_SWP_ALWAYS, false, 0, 0},
    {"rm", "round_mode", TPC_SWF_T, 0, 3, 0, v_round_int, false, 0, TPC_SWP_NAME, true, 0, 0},
    {0},
};
static const TpcSwDef sw_popcnt[] = {
    {"set", NULL, TPC_SWF_SW, 0, 1, 0, NULL, true, 0, TPC_SWP_LEAD, false, 0, 0},
    {0},
};
static const TpcSwVal v_dir[] = {{"start_lsb", 0}, {"start_msb", 1}, {NULL, 0}};
static const TpcSwDef sw_find_first[] = {
    {"set", NULL, TPC_SWF_SW, 0, 1, 0, NULL, true, 0, TPC_SWP_LEAD, false, 0, 0},
    {"dir", NULL, TPC_SWF_SW, 1, 1, 0, v_dir, false, 0, TPC_SWP_NAME, false, 0, 0},
    {0},
};

const TpcSwDef *tpc_sws_table(unsigned sws)
{
    static const TpcSwDef *const tab[TPC_SWS_COUNT] = {
        [TPC_SWS_MAC] = sw_mac,
        [TPC_SWS_MUL_SPU] = sw_mul_spu,
        [TPC_SWS_MUL_VPU] = sw_mul_vpu,
        [TPC_SWS_ADD] = sw_add,
        [TPC_SWS_SUB] = sw_sub,
        [TPC_SWS_CMP_EQ] = sw_cmp_eq,
        [TPC_SWS_ASH] = sw_ash,
        [TPC_SWS_CONVERT] = sw_convert,
        [TPC_SWS_PACK] = sw_pack,
        [TPC_SWS_UNPACK] = sw_unpack,
        [TPC_SWS_MOV_DG] = sw_mov_dg,
        [TPC_SWS_MOV_G] = sw_mov_g,
        [TPC_SWS_MMIO] = sw_mmio,
        [TPC_SWS_LD_TNSR] = sw_ld_tnsr,
        [TPC_SWS_ST_TNSR] = sw_st_tnsr,
        [TPC_SWS_ASO] = sw_aso,
        [TPC_SWS_NEARBYINT] = sw_nearbyint,
        [TPC_SWS_EXTRACT_EXP] = sw_extract_exp,
        [TPC_SWS_CALC_FP] = sw_calc_fp,
        [TPC_SWS_FORM_FP_NUM] = sw_form_fp_num,
        [TPC_SWS_GET_LUT] = sw_get_lut,
        [TPC_SWS_LOOKUP] = sw_lookup,
        [TPC_SWS_LOOKUP_C] = sw_lookup_c,
        [TPC_SWS_CVT_INT] = sw_cvt_int,
        [TPC_SWS_CVT_INT16] = sw_cvt_int16,
        [TPC_SWS_POPCNT] = sw_popcnt,
        [TPC_SWS_FIND_FIRST] = sw_find_first,
        [TPC_SWS_MOV] = sw_mov,
    };
    return sws < TPC_SWS_COUNT ? tab[sws] : NULL;
}
