/*
 * Sequencer validity predicates (sequencer.md §4.4, §5, §8, §9, §10).  Which
 * predicates an opcode runs, in which order and over which reserved bytes
 * comes from insn.def; this file only knows what each predicate means.
 */
#include <string.h>

#include "insn.h"

/* ---- byte helpers ---------------------------------------------------- */

static inline uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static bool all_zero(const uint8_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
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
    bool evsem = r[0] == SEQ_OP_EVENT_SEMAPHORE;
    return events_check(r[4], r[5], evsem ? 0 : r[6], evsem ? 0 : r[7], rd32(r + 8));
}

static bool evsem_ext_ok(const uint8_t *r)
{
    unsigned wm = r[32], wi = r[33], um = r[34], ui = r[35];
    uint32_t wv = rd32(r + 36), uv = rd32(r + 40);
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
    unsigned b7 = a[7], m = b7 & 0xFC;
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
        return a[0] <= 63 && a[1] <= 63 && all_zero(a + 2, 5);
    case SEQ_ADDR_TBL_IMM32:
        return a[4] == 0 && a[5] == 0 && a[6] <= 63;
    case SEQ_ADDR_TBL_IMM48:
        return a[6] <= 63;
    case SEQ_ADDR_TBL_REG:
        return a[0] <= 63 && all_zero(a + 1, 5) && a[6] <= 63;
    case SEQ_ADDR_TBL_REG64:
        return a[0] <= 63 && a[1] <= 63 && all_zero(a + 2, 4) && a[6] <= 63;
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
    return r[0] == SEQ_OP_TENSOR_STORE || r[0] == SEQ_OP_PSEUDO_TENSOR_STORE;
}

/* Register-sourced mem_2d data (loads always, stores with src_datasrc 0). */
static bool mem2d_regs(const uint8_t *r)
{
    return !is_store(r) || r[13] == 0;
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

static uint32_t esz_decode(uint16_t v)
{
    return v ? v : 65536u;
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
        return r[1] == 0x10;
    case SEQ_P_header_debug_cmd:
        return r[2] == 0 || r[2] == 1 || r[2] == 3 || r[2] == 5 || r[2] == 7 || r[2] == 9;
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
        unsigned sz = r[0] == SEQ_OP_WRITE ? 4 : seq_dtype_size(r[12]);
        return sz == 0 || rd64(r + arg) % sz == 0;
    }
    case SEQ_P_mem2d_num_elem_range:
        return r[14] >= 1 && r[14] <= 32 && r[15] >= 1 && r[15] <= 32;
    case SEQ_P_mem2d_dtype_check:
        return mem2d_dtype_ok(r[12], false);
    case SEQ_P_pseudo_mem2d_dtype_check:
        return mem2d_dtype_ok(r[12], true);
    case SEQ_P_mem2d_datasrc_zero:
        return r[13] == 0;
    case SEQ_P_mem2d_datasrc_valid:
        return r[13] <= 1;
    case SEQ_P_mem2d_32_elem_check:
        return r[14] * r[15] <= 32;
    case SEQ_P_mem2d_store_num_elem_check: {
        unsigned n = r[14] * r[15];
        unsigned sz = seq_dtype_size(r[12]);
        return r[13] == 0 ? n <= 32 : sz && n <= 32 / sz;
    }
    case SEQ_P_mem2d_u64_register_check:
        if (r[12] != SEQ_DT_U64 || !mem2d_regs(r)) {
            return true;
        }
        for (unsigned i = 0; i < 32; i++) {
            if (r[32 + i] & 1) {
                return false;
            }
        }
        return true;
    case SEQ_P_mem2d_register_range:
        if (!mem2d_regs(r)) {
            return true;
        }
        for (unsigned i = 0; i < (unsigned)(r[14] * r[15]); i++) {
            if (r[32 + i] > 63) {
                return false;
            }
        }
        return true;
    case SEQ_P_ctrl_mv_valid_num:
        return r[12] >= 1 && r[12] <= 8;
    case SEQ_P_ctrl_mv_reserved_zero:
        return r[15] == 0;
    case SEQ_P_ctrl_mv_has_valid_dtype:
        return w32_dtype(r[13]);
    case SEQ_P_ctrl_mv_valid_source:
        return r[14] <= 1;
    case SEQ_P_ctrl_mv_valid_register:
        for (unsigned k = 0; k < 8; k++) {
            unsigned s = r[16 + k], d = r[24 + k];
            if (k < r[12]) {
                if (!(s <= 63 || s == 128 || s == 129) || d > 63) {
                    return false;
                }
            } else if (s != 0) {
                return false;
            }
        }
        return true;
    case SEQ_P_ctrl_mv_unique_dst:
        for (unsigned i = 0; i < r[12]; i++) {
            for (unsigned j = i + 1; j < r[12]; j++) {
                if (r[24 + i] == r[24 + j]) {
                    return false;
                }
            }
        }
        return true;
    case SEQ_P_ctrl_mv_dst_not_src:
        if (r[14] != 0) {
            return true;
        }
        for (unsigned i = 0; i < r[12]; i++) {
            for (unsigned j = 0; j < r[12]; j++) {
                if (r[24 + i] == r[16 + j]) {
                    return false;
                }
            }
        }
        return true;
    case SEQ_P_alu_op_supported:
        return seq_alu_mnemonic(r[12]) != NULL;
    case SEQ_P_alu_dtype:
        return w32_dtype(r[13]) || alu_wide(r[13]);
    case SEQ_P_alu_dst_dtype:
        return r[15] == 0 || r[15] == r[13];
    case SEQ_P_alu_datasrc:
        if (r[14] > 1) {
            return false;
        }
        if ((alu_unary(r[12]) || r[14] == 1) && (r[18] || r[19])) {
            return false;
        }
        if ((alu_unary(r[12]) || r[14] == 0) && !all_zero(r + 24, 8)) {
            return false;
        }
        return true;
    case SEQ_P_alu_registers: {
        bool wide = alu_wide(r[13]);
        bool src1 = !alu_unary(r[12]) && r[14] == 0;
        if (r[16] > 63 || r[20] > 63 || (src1 && r[18] > 63)) {
            return false;
        }
        if (!wide) {
            return r[17] == 0 && r[19] == 0 && r[21] == 0;
        }
        if (r[17] > 63 || r[21] > 63 || (src1 && r[19] > 63)) {
            return false;
        }
        return r[20] != r[21];
    }
    case SEQ_P_alu_imm_range:
        return alu_wide(r[13]) || rd32(r + 28) == 0;
    case SEQ_P_alu_op_dtype:
        /* The integer-only ops are the rows with fp32 = 0 (0xC4..0xC6 included). */
        return r[13] != SEQ_DT_F32 || seq_alu_fp32(r[12]);
    case SEQ_P_br_cmp_op:
        return r[12] <= 6 || (r[12] >= 9 && r[12] <= 14);
    case SEQ_P_br_dtype:
        if (r[12] == 0) {
            return r[13] == 0;
        }
        return (r[13] >= SEQ_DT_I8 && r[13] <= SEQ_DT_U16) || w32_dtype(r[13]);
    case SEQ_P_br_target_mode:
        return r[14] == 0 || r[14] == 1 || r[14] == 3 || r[14] == 4;
    case SEQ_P_br_operands_zero: {
        unsigned c = r[12], m = r[14];
        if (c == 0 && (rd32(r + 16) || r[32] || r[33])) {
            return false;
        }
        if (c >= 1 && c <= 6 && r[33]) {
            return false;
        }
        if (c >= 9 && rd32(r + 16)) {
            return false;
        }
        switch (m) {
        case SEQ_TGT_ABS_IMM:
            return r[34] == 0 && r[35] == 0;
        case SEQ_TGT_REGISTER:
            return rd64(r + 48) == 0;
        case SEQ_TGT_REL_IMM:
            return r[34] == 0 && r[35] == 0 && rd32(r + 52) == 0;
        default: /* REL_REGISTER */
            return r[35] == 0 && rd64(r + 48) == 0;
        }
    }
    case SEQ_P_br_registers: {
        unsigned c = r[12], m = r[14];
        if (c != 0 && r[32] > 63) {
            return false;
        }
        if (c >= 9 && r[33] > 63) {
            return false;
        }
        if ((m == SEQ_TGT_REGISTER || m == SEQ_TGT_REL_REGISTER) && r[34] > 63) {
            return false;
        }
        return !(m == SEQ_TGT_REGISTER && r[35] > 63);
    }
    case SEQ_P_br_link:
        return r[15] == 0 || (r[15] == 1 && r[12] == 0);
    case SEQ_P_br_rel_imm_range:
        if (r[14] == SEQ_TGT_REL_IMM) {
            return (int32_t)rd32(r + 48) % 64 == 0;
        }
        if (r[14] == SEQ_TGT_ABS_IMM) {
            return rd64(r + 48) % 64 == 0;
        }
        return true;
    case SEQ_P_wr_fields:
        if (r[12] > 1 || !w32_dtype(r[13])) {
            return false;
        }
        return r[12] == 0 ? r[14] <= 63 && rd32(r + 24) == 0 : r[14] == 0;
    case SEQ_P_notify_fields:
        if (r[12] > 3 || r[13] > 1) {
            return false;
        }
        return r[13] == 0 ? r[14] <= 63 && rd32(r + 16) == 0 : r[14] == 0;
    case SEQ_P_evsem_std_update_zero:
        return r[6] == 0 && r[7] == 0;
    case SEQ_P_evsem_ext_events:
        return evsem_ext_ok(r);
    case SEQ_P_grst_mode:
        return r[12] == 1 || r[12] == 2;
    case SEQ_P_grst_fields:
        if (r[12] == 1) {
            return r[13] <= r[14] && all_zero(r + 32, 32);
        }
        return r[13] == 0 && r[14] == 0;
    case SEQ_P_drain_count:
        return r[40] <= 1;
    case SEQ_P_dma_num_elem:
        return rd16(r + 32) && rd16(r + 34) && rd16(r + 56) && rd16(r + 58);
    case SEQ_P_dma_byte_count: {
        uint64_t s = (uint64_t)rd16(r + 32) * rd16(r + 34) * esz_decode(rd16(r + 36));
        uint64_t d = (uint64_t)rd16(r + 56) * rd16(r + 58) * esz_decode(rd16(r + 60));
        return s == d && s <= (1ull << 32);
    }
    case SEQ_P_dma_compute_op:
        return r[r[0] == SEQ_OP_DMA_MEMCPY ? 15 : 60] <= 4;
    case SEQ_P_dma_dtypes:
        if (r[0] == SEQ_OP_DMA_MEMCPY) {
            return dma_dtype_ok(r[15], r[62], r[63], esz_decode(rd16(r + 36)),
                                esz_decode(rd16(r + 60)));
        }
        return dma_dtype_ok(r[60], r[56], r[57], esz_decode(rd16(r + 30)),
                            esz_decode(rd16(r + 46)));
    case SEQ_P_dma_bound_check_inert:
        return r[0] == SEQ_OP_DMA_MEMCPY ? r[38] == 0 && r[39] == 0 : r[58] == 0 && r[59] == 0;
    case SEQ_P_dma_configs: {
        unsigned c = r[r[0] == SEQ_OP_DMA_MEMCPY ? 12 : 61];
        return (c & 7) <= 4 && (c >> 3) == 0;
    }
    case SEQ_P_dmai_flags:
        return (r[15] & 3) <= 2 && (r[15] & ~0x0Bu) == 0;
    case SEQ_P_dmai_index_count:
        return rd16(r + 28) >= 1 && rd16(r + 28) <= 4096;
    case SEQ_P_dmai_idx_addr: {
        unsigned mode = r[15] & 3;
        uint32_t n = rd16(r + 28);
        return dmai_idx_ok(rd32(r + 48), mode == 0 || mode == 2, n) &&
               dmai_idx_ok(rd32(r + 52), mode == 1 || mode == 2, n);
    }
    case SEQ_P_dmai_active_channels:
        return r[14] == 128;
    case SEQ_P_dmai_shape:
        return rd16(r + 44) == rd16(r + 28) && rd16(r + 46) == rd16(r + 30);
    case SEQ_P_pseudo_call_fields:
        return r[12] != 0 && memchr(r + 12, 0, 36) != NULL && rd32(r + 48) == 0 &&
               all_zero(r + 52, 12);
    case SEQ_P_pseudo_exit_subop:
        return r[12] == 1 || r[12] == 2;
    default:
        return false;
    }
}

unsigned seq_check_predicates(const uint8_t rec[64])
{
    const SeqInsnDesc *d = seq_insn_desc(rec[0]);
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
