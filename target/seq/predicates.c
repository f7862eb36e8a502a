/*
 * Sequencer validity predicates (sequencer.md §4.4, §5, §8, §9, §10).  Which
 * predicates an opcode runs, in which order and over which reserved bytes
 * comes from insn.def; this file only knows what each predicate means.
 */
#include <string.h>

#include "insn.h"

/* ---- byte helpers ---------------------------------------------------- */

#define F(name)     seq_field_get(r, SEQ_F_##name)
#define FA(name, k) seq_field_get_at(r, SEQ_F_##name, k)
#define A8(name)    seq_field_get(a, SEQ_F_ADDR8_##name)
/* One past the last byte of a field. */
#define END(F) ((F) + seq_field_bytes(F))

static bool all_zero(const uint8_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

/* Bytes lo .. hi - 1 of p are zero. */
static bool bytes_zero(const uint8_t *p, unsigned lo, unsigned hi)
{
    return lo >= hi || all_zero(p + lo, hi - lo);
}

/* ---- events ---------------------------------------------------------- */

static bool wait_mode_valid(unsigned m)
{
    return m <= 0x07 || m == 0x0E || m == 0x0F || (m >= 0x81 && m <= 0x85);
}

static bool wait_is_sem(unsigned m)
{
    return (m >= 0x01 && m <= 0x05) || (m >= 0x81 && m <= 0x85);
}

static bool update_mode_valid(unsigned m)
{
    return m <= 0x0A || (m >= 0x11 && m <= 0x1A);
}

/* ADD/SUB/WR kinds use V. */
static bool update_uses_value(unsigned m)
{
    return m != 0 && (m & 0x0F) >= 0x05;
}

static bool update_is_reg(unsigned m)
{
    unsigned k = m & 0x0F;
    return m != 0 && (k == 0x06 || k == 0x08 || k == 0x0A);
}

/* §4.4 sub-checks over (wait mode, wait idx, update mode, update idx, V);
 * returns the failing predicate id or 0. */
static unsigned events_check(unsigned wm, unsigned wi, unsigned um, unsigned ui, uint32_t v)
{
    if (!wait_mode_valid(wm)) {
        return SEQ_P_events_wait_mode;
    }
    if (!update_mode_valid(um)) {
        return SEQ_P_events_update_mode;
    }
    if ((wm == 0 && wi != 0) || (um == 0 && ui != 0) ||
        (v != 0 && !wait_is_sem(wm) && !update_uses_value(um))) {
        return SEQ_P_events_unused_zero;
    }
    if (((wm & 0x80) || update_is_reg(um)) && v > 63) {
        return SEQ_P_events_reg_range;
    }
    return 0;
}

/* The standard events field; EVENT_SEMAPHORE has no update there (§8.1). */
static unsigned std_events_check(const uint8_t *r)
{
    bool evsem = F(HDR_OPCODE) == SEQ_OP_EVENT_SEMAPHORE;
    return events_check(F(EV_WAIT_MODE), F(EV_WAIT_IDX), evsem ? 0 : F(EV_UPD_MODE),
                        evsem ? 0 : F(EV_UPD_IDX), F(EV_VALUE));
}

static bool evsem_ext_ok(const uint8_t *r)
{
    unsigned wm = F(EVSEM_WAITB_MODE), wi = F(EVSEM_WAITB_IDX), um = F(EVSEM_UPD_MODE),
             ui = F(EVSEM_UPD_IDX);
    uint32_t wv = F(EVSEM_WAITB_VALUE), uv = F(EVSEM_UPD_VALUE);
    if (!wait_mode_valid(wm) || !update_mode_valid(um)) {
        return false;
    }
    if ((wm == 0 && wi) || (um == 0 && ui)) {
        return false;
    }
    if ((wv && !wait_is_sem(wm)) || (uv && !update_uses_value(um))) {
        return false;
    }
    if (((wm & 0x80) && wv > 63) || (update_is_reg(um) && uv > 63)) {
        return false;
    }
    return true;
}

/* ---- ADDR8 (§5.1) ---------------------------------------------------- */

int seq_addr8_mode(const uint8_t *a)
{
    unsigned b7 = A8(MARKER), m = b7 & 0xFC;
    if (m == 0x00) {
        return SEQ_ADDR_IMM;
    }
    if (b7 & 3) {
        return -1;
    }
    switch (m) {
    case 0x80:
        return SEQ_ADDR_REG;
    case 0x20:
        return SEQ_ADDR_TBL_IMM32;
    case 0x24:
        return SEQ_ADDR_TBL_IMM48;
    case 0x28:
        return SEQ_ADDR_TBL_REG;
    case 0x2C:
        return SEQ_ADDR_TBL_REG64;
    default:
        return -1;
    }
}

static bool addr8_fields_ok(const uint8_t *a)
{
    switch (seq_addr8_mode(a)) {
    case SEQ_ADDR_IMM:
        return true;
    case SEQ_ADDR_REG:
        return A8(REG_LO) <= 63 && A8(REG_HI) <= 63 &&
               bytes_zero(a, END(SEQ_F_ADDR8_REG_HI), SEQ_F_ADDR8_MARKER);
    case SEQ_ADDR_TBL_IMM32:
        return bytes_zero(a, END(SEQ_F_ADDR8_OFF32), SEQ_F_ADDR8_INDEX) && A8(INDEX) <= 63;
    case SEQ_ADDR_TBL_IMM48:
        return A8(INDEX) <= 63;
    case SEQ_ADDR_TBL_REG:
        return A8(REG_LO) <= 63 && bytes_zero(a, END(SEQ_F_ADDR8_REG_LO), SEQ_F_ADDR8_INDEX) &&
               A8(INDEX) <= 63;
    case SEQ_ADDR_TBL_REG64:
        return A8(REG_LO) <= 63 && A8(REG_HI) <= 63 &&
               bytes_zero(a, END(SEQ_F_ADDR8_REG_HI), SEQ_F_ADDR8_INDEX) && A8(INDEX) <= 63;
    default:
        return false;
    }
}

/* ---- per-opcode helpers ---------------------------------------------- */

static bool mem2d_dtype_ok(unsigned dt, bool pseudo)
{
    switch (dt) {
    case SEQ_DT_U64:
        return !pseudo;
    case SEQ_DT_I8:
    case SEQ_DT_U8:
    case SEQ_DT_I16:
    case SEQ_DT_U16:
    case SEQ_DT_I32:
    case SEQ_DT_U32:
    case SEQ_DT_F32:
        return true;
    default:
        return false;
    }
}

static bool is_store(const uint8_t *r)
{
    return F(HDR_OPCODE) == SEQ_OP_TENSOR_STORE || F(HDR_OPCODE) == SEQ_OP_PSEUDO_TENSOR_STORE;
}

/* Register-sourced mem_2d data (loads always, stores with src_datasrc 0). */
static bool mem2d_regs(const uint8_t *r)
{
    return !is_store(r) || F(M2D_DATASRC) == 0;
}

static bool w32_dtype(unsigned dt)
{
    return dt == SEQ_DT_I32 || dt == SEQ_DT_U32 || dt == SEQ_DT_F32;
}

static bool alu_unary(unsigned op)
{
    return seq_alu_unary(op);
}

static bool alu_wide(unsigned dt)
{
    return dt == SEQ_DT_I64 || dt == SEQ_DT_U64;
}

static bool dma_dtype_ok(unsigned op, unsigned in, unsigned out, uint32_t sesz, uint32_t desz)
{
    if (in != out) {
        return false;
    }
    if (op == 0) {
        return in <= 0xF;
    }
    switch (in) {
    case SEQ_DT_I32:
    case SEQ_DT_U32:
    case SEQ_DT_F32:
    case SEQ_DT_BF16:
    case SEQ_DT_F16:
        break;
    default:
        return false;
    }
    unsigned sz = seq_dtype_size(in);
    return sesz % sz == 0 && desz % sz == 0;
}

static bool dmai_idx_ok(uint32_t a, bool used, uint32_t n)
{
    if (!used) {
        return a == 0;
    }
    return a < 0x30000 && a % 4 == 0 && (uint64_t)a + 4ull * n <= 0x30000;
}

/* ---- the predicates -------------------------------------------------- */

static bool pred_ok(unsigned id, unsigned arg, const uint8_t *r, uint64_t rsv)
{
    switch (id) {
    case SEQ_P_header_word_len:
        return F(HDR_WORD_LEN) == 0x10;
    case SEQ_P_header_debug_cmd:
        return F(HDR_DEBUG_CMD) == 0 || F(HDR_DEBUG_CMD) == 1 || F(HDR_DEBUG_CMD) == 3 ||
               F(HDR_DEBUG_CMD) == 5 || F(HDR_DEBUG_CMD) == 7 || F(HDR_DEBUG_CMD) == 9;
    case SEQ_P_events_wait_mode:
    case SEQ_P_events_update_mode:
    case SEQ_P_events_unused_zero:
    case SEQ_P_events_reg_range: {
        /* events_check reports the first failing sub-check in §4.4 order;
         * the lists evaluate the sub-checks in that same order, so when this
         * one is reached every earlier one has passed. */
        unsigned bad = std_events_check(r);
        return bad == 0 || bad > id;
    }
    case SEQ_P_reserved_zero:
        for (unsigned i = 0; i < 64; i++) {
            if ((rsv >> i & 1) && r[i]) {
                return false;
            }
        }
        return true;
    case SEQ_P_addr8_marker:
        return seq_addr8_mode(r + arg) >= 0;
    case SEQ_P_addr8_fields:
        return addr8_fields_ok(r + arg);
    case SEQ_P_valid_start_addr: {
        if (seq_addr8_mode(r + arg) != SEQ_ADDR_IMM) {
            return true;
        }
        unsigned sz = F(HDR_OPCODE) == SEQ_OP_WRITE ? 4 : seq_dtype_size(F(M2D_DTYPE));
        return sz == 0 || seq_field_get(r + arg, SEQ_F_ADDR8_IMM) % sz == 0;
    }
    case SEQ_P_mem2d_num_elem_range:
        return F(M2D_N0) >= 1 && F(M2D_N0) <= 32 && F(M2D_N1) >= 1 && F(M2D_N1) <= 32;
    case SEQ_P_mem2d_dtype_check:
        return mem2d_dtype_ok(F(M2D_DTYPE), false);
    case SEQ_P_pseudo_mem2d_dtype_check:
        return mem2d_dtype_ok(F(M2D_DTYPE), true);
    case SEQ_P_mem2d_datasrc_zero:
        return F(M2D_DATASRC) == 0;
    case SEQ_P_mem2d_datasrc_valid:
        return F(M2D_DATASRC) <= 1;
    case SEQ_P_mem2d_32_elem_check:
        return F(M2D_N0) * F(M2D_N1) <= 32;
    case SEQ_P_mem2d_store_num_elem_check: {
        unsigned n = F(M2D_N0) * F(M2D_N1);
        unsigned sz = seq_dtype_size(F(M2D_DTYPE));
        return F(M2D_DATASRC) == 0 ? n <= 32 : sz && n <= 32 / sz;
    }
    case SEQ_P_mem2d_u64_register_check:
        if (F(M2D_DTYPE) != SEQ_DT_U64 || !mem2d_regs(r)) {
            return true;
        }
        for (unsigned i = 0; i < SEQ_F_M2D_DATA_N; i++) {
            if (FA(M2D_DATA, i) & 1) {
                return false;
            }
        }
        return true;
    case SEQ_P_mem2d_register_range:
        if (!mem2d_regs(r)) {
            return true;
        }
        for (unsigned i = 0; i < (unsigned)(F(M2D_N0) * F(M2D_N1)); i++) {
            if (FA(M2D_DATA, i) > 63) {
                return false;
            }
        }
        return true;
    case SEQ_P_ctrl_mv_valid_num:
        return F(MV_NUM) >= 1 && F(MV_NUM) <= 8;
    case SEQ_P_ctrl_mv_reserved_zero:
        return F(MV_RESERVED) == 0;
    case SEQ_P_ctrl_mv_has_valid_dtype:
        return w32_dtype(F(MV_DTYPE));
    case SEQ_P_ctrl_mv_valid_source:
        return F(MV_SOURCE) <= 1;
    case SEQ_P_ctrl_mv_valid_register:
        for (unsigned k = 0; k < SEQ_F_MV_SRC_N; k++) {
            unsigned s = FA(MV_SRC, k), d = FA(MV_DST, k);
            if (k < F(MV_NUM)) {
                if (!(s <= 63 || s == 128 || s == 129) || d > 63) {
                    return false;
                }
            } else if (s != 0) {
                return false;
            }
        }
        return true;
    case SEQ_P_ctrl_mv_unique_dst:
        for (unsigned i = 0; i < F(MV_NUM); i++) {
            for (unsigned j = i + 1; j < F(MV_NUM); j++) {
                if (FA(MV_DST, i) == FA(MV_DST, j)) {
                    return false;
                }
            }
        }
        return true;
    case SEQ_P_ctrl_mv_dst_not_src:
        if (F(MV_SOURCE) != 0) {
            return true;
        }
        for (unsigned i = 0; i < F(MV_NUM); i++) {
            for (unsigned j = 0; j < F(MV_NUM); j++) {
                if (FA(MV_DST, i) == FA(MV_SRC, j)) {
                    return false;
                }
            }
        }
        return true;
    case SEQ_P_alu_op_supported:
        return seq_alu_mnemonic(F(ALU_OP)) != NULL;
    case SEQ_P_alu_dtype:
        return w32_dtype(F(ALU_DTYPE)) || alu_wide(F(ALU_DTYPE));
    case SEQ_P_alu_dst_dtype:
        return F(ALU_DST_DTYPE) == 0 || F(ALU_DST_DTYPE) == F(ALU_DTYPE);
    case SEQ_P_alu_datasrc:
        if (F(ALU_DATASRC) > 1) {
            return false;
        }
        if ((alu_unary(F(ALU_OP)) || F(ALU_DATASRC) == 1) && (F(ALU_SRC1_LO) || F(ALU_SRC1_HI))) {
            return false;
        }
        if ((alu_unary(F(ALU_OP)) || F(ALU_DATASRC) == 0) && F(ALU_IMM) != 0) {
            return false;
        }
        return true;
    case SEQ_P_alu_registers: {
        bool wide = alu_wide(F(ALU_DTYPE));
        bool src1 = !alu_unary(F(ALU_OP)) && F(ALU_DATASRC) == 0;
        if (F(ALU_SRC0_LO) > 63 || F(ALU_DST_LO) > 63 || (src1 && F(ALU_SRC1_LO) > 63)) {
            return false;
        }
        if (!wide) {
            return F(ALU_SRC0_HI) == 0 && F(ALU_SRC1_HI) == 0 && F(ALU_DST_HI) == 0;
        }
        if (F(ALU_SRC0_HI) > 63 || F(ALU_DST_HI) > 63 || (src1 && F(ALU_SRC1_HI) > 63)) {
            return false;
        }
        return F(ALU_DST_LO) != F(ALU_DST_HI);
    }
    case SEQ_P_alu_imm_range:
        return alu_wide(F(ALU_DTYPE)) || F(ALU_IMM) >> 32 == 0;
    case SEQ_P_alu_op_dtype:
        /* The integer-only ops are the rows with fp32 = 0 (0xC4..0xC6 included). */
        return F(ALU_DTYPE) != SEQ_DT_F32 || seq_alu_fp32(F(ALU_OP));
    case SEQ_P_br_cmp_op:
        return F(BR_CMP_OP) <= 6 || (F(BR_CMP_OP) >= 9 && F(BR_CMP_OP) <= 14);
    case SEQ_P_br_dtype:
        if (F(BR_CMP_OP) == 0) {
            return F(BR_DTYPE) == 0;
        }
        return (F(BR_DTYPE) >= SEQ_DT_I8 && F(BR_DTYPE) <= SEQ_DT_U16) || w32_dtype(F(BR_DTYPE));
    case SEQ_P_br_target_mode:
        return F(BR_TARGET_MODE) == 0 || F(BR_TARGET_MODE) == 1 || F(BR_TARGET_MODE) == 3 ||
               F(BR_TARGET_MODE) == 4;
    case SEQ_P_br_operands_zero: {
        unsigned c = F(BR_CMP_OP), m = F(BR_TARGET_MODE);
        if (c == 0 && (F(BR_RHS_IMM) || F(BR_LHS) || F(BR_RHS))) {
            return false;
        }
        if (c >= 1 && c <= 6 && F(BR_RHS)) {
            return false;
        }
        if (c >= 9 && F(BR_RHS_IMM)) {
            return false;
        }
        switch (m) {
        case SEQ_TGT_ABS_IMM:
            return F(BR_TGT_LO) == 0 && F(BR_TGT_HI) == 0;
        case SEQ_TGT_REGISTER:
            return F(BR_TARGET_IMM) == 0;
        case SEQ_TGT_REL_IMM:
            return F(BR_TGT_LO) == 0 && F(BR_TGT_HI) == 0 && F(BR_TARGET_IMM) >> 32 == 0;
        default: /* REL_REGISTER */
            return F(BR_TGT_HI) == 0 && F(BR_TARGET_IMM) == 0;
        }
    }
    case SEQ_P_br_registers: {
        unsigned c = F(BR_CMP_OP), m = F(BR_TARGET_MODE);
        if (c != 0 && F(BR_LHS) > 63) {
            return false;
        }
        if (c >= 9 && F(BR_RHS) > 63) {
            return false;
        }
        if ((m == SEQ_TGT_REGISTER || m == SEQ_TGT_REL_REGISTER) && F(BR_TGT_LO) > 63) {
            return false;
        }
        return !(m == SEQ_TGT_REGISTER && F(BR_TGT_HI) > 63);
    }
    case SEQ_P_br_link:
        return F(BR_LINK) == 0 || (F(BR_LINK) == 1 && F(BR_CMP_OP) == 0);
    case SEQ_P_br_rel_imm_range:
        if (F(BR_TARGET_MODE) == SEQ_TGT_REL_IMM) {
            return (int32_t)(uint32_t)F(BR_TARGET_IMM) % 64 == 0;
        }
        if (F(BR_TARGET_MODE) == SEQ_TGT_ABS_IMM) {
            return F(BR_TARGET_IMM) % 64 == 0;
        }
        return true;
    case SEQ_P_wr_fields:
        if (F(WR_DATASRC) > 1 || !w32_dtype(F(WR_DTYPE))) {
            return false;
        }
        return F(WR_DATASRC) == 0 ? F(WR_SRC_REG) <= 63 && F(WR_IMM) == 0 : F(WR_SRC_REG) == 0;
    case SEQ_P_notify_fields:
        if (F(NTF_QUEUE) > 3 || F(NTF_DATASRC) > 1) {
            return false;
        }
        return F(NTF_DATASRC) == 0 ? F(NTF_SRC_REG) <= 63 && F(NTF_IMM) == 0 : F(NTF_SRC_REG) == 0;
    case SEQ_P_evsem_std_update_zero:
        return F(EV_UPD_MODE) == 0 && F(EV_UPD_IDX) == 0;
    case SEQ_P_evsem_ext_events:
        return evsem_ext_ok(r);
    case SEQ_P_grst_mode:
        return F(GRST_MODE) == 1 || F(GRST_MODE) == 2;
    case SEQ_P_grst_fields:
        if (F(GRST_MODE) == 1) {
            return F(GRST_FIRST) <= F(GRST_LAST) &&
                   all_zero(seq_field_ptr(r, SEQ_F_GRST_MASK), seq_field_bytes(SEQ_F_GRST_MASK));
        }
        return F(GRST_FIRST) == 0 && F(GRST_LAST) == 0;
    case SEQ_P_drain_count:
        return F(DRAIN_COUNT) <= 1;
    case SEQ_P_dma_num_elem:
        return F(DMA_SRC_N0) && F(DMA_SRC_N1) && F(DMA_DST_N0) && F(DMA_DST_N1);
    case SEQ_P_dma_byte_count: {
        uint64_t s = (uint64_t)F(DMA_SRC_N0) * F(DMA_SRC_N1) * F(DMA_SRC_ESIZE);
        uint64_t d = (uint64_t)F(DMA_DST_N0) * F(DMA_DST_N1) * F(DMA_DST_ESIZE);
        return s == d && s <= (1ull << 32);
    }
    case SEQ_P_dma_compute_op:
        return (F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY ? F(DMA_COMPUTE_OP) : F(DMAI_COMPUTE_OP)) <= 4;
    case SEQ_P_dma_dtypes:
        if (F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY) {
            return dma_dtype_ok(F(DMA_COMPUTE_OP), F(DMA_IN_DTYPE), F(DMA_OUT_DTYPE),
                                F(DMA_SRC_ESIZE), F(DMA_DST_ESIZE));
        }
        return dma_dtype_ok(F(DMAI_COMPUTE_OP), F(DMAI_IN_DTYPE), F(DMAI_OUT_DTYPE),
                            F(DMAI_SRC_ESIZE), F(DMAI_DST_ESIZE));
    case SEQ_P_dma_bound_check_inert:
        return F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY
                   ? F(DMA_SRC_BOUND_REG) == 0 && F(DMA_DST_BOUND_REG) == 0
                   : F(DMAI_SRC_IDX_BOUND_REG) == 0 && F(DMAI_DST_IDX_BOUND_REG) == 0;
    case SEQ_P_dma_configs: {
        unsigned c = F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY ? F(DMA_CONFIGS) : F(DMAI_CONFIGS);
        return (c & 7) <= 4 && (c >> 3) == 0; /* priority [2:0] 0..4, [7:3] reserved */
    }
    case SEQ_P_dmai_flags:
        /* Every flag bit but mode and non_unique_dst_idx must be 0. */
        return F(DMAI_MODE) <= 2 && F(DMAI_IDX_BOUND_IS_ERR) == 0 && F(DMAI_GATHER_DIM) == 0 &&
               F(DMAI_SCATTER_DIM) == 0;
    case SEQ_P_dmai_index_count:
        return F(DMAI_SRC_N) >= 1 && F(DMAI_SRC_N) <= 4096;
    case SEQ_P_dmai_idx_addr: {
        unsigned mode = F(DMAI_MODE);
        uint32_t n = F(DMAI_SRC_N);
        return dmai_idx_ok(F(DMAI_SRC_IDX), mode == 0 || mode == 2, n) &&
               dmai_idx_ok(F(DMAI_DST_IDX), mode == 1 || mode == 2, n);
    }
    case SEQ_P_dmai_active_channels:
        return F(DMAI_ACTIVE_CHANNELS) == 128;
    case SEQ_P_dmai_shape:
        return F(DMAI_DST_N) == F(DMAI_SRC_N) && F(DMAI_DST_ESIZE) == F(DMAI_SRC_ESIZE);
    case SEQ_P_pseudo_call_fields:
        return F(PCALL_NAME) != 0 &&
               memchr(seq_field_ptr(r, SEQ_F_PCALL_NAME), 0, seq_field_bytes(SEQ_F_PCALL_NAME)) &&
               F(PCALL_ARGS_VAR) == 0 &&
               all_zero(seq_field_ptr(r, SEQ_F_PCALL_RESERVED),
                        seq_field_bytes(SEQ_F_PCALL_RESERVED));
    case SEQ_P_pseudo_exit_subop:
        return F(PEXIT_SUBOP) == 1 || F(PEXIT_SUBOP) == 2;
    default:
        return false;
    }
}

unsigned seq_check_predicates(const uint8_t rec[64])
{
    const SeqInsnDesc *d = seq_insn_desc(seq_field_get(rec, SEQ_F_HDR_OPCODE));
    if (!d) {
        return 0;
    }
    for (unsigned i = 0; i < d->nr_preds; i++) {
        unsigned e = d->preds[i];
        if (!pred_ok(SEQ_PRED_ID(e), SEQ_PRED_ARG(e), rec, d->reserved)) {
            return SEQ_PRED_ID(e);
        }
    }
    return 0;
}
