/*
 * Direct execution of plain bundles (the TPC's fast path, tpc.md §6.1).
 *
 * The general bundle loop stages every slot's results and commits them
 * after all slots ran; that machinery costs about as much as the work in a
 * compiled kernel's bundles.  For a bundle made only of the commonest slot
 * forms, whose registers read and written are known from the encoding, a
 * plan is made once at decode: an order of the slots in which no slot reads
 * a register that a slot before it writes.  Executed in that order, each
 * slot can write its registers at once and still see pre-bundle values, so
 * read-before-write holds without staging.  Everything that can go wrong is
 * checked first ("prep": the fast tensor spans, which need the predicate,
 * descriptor, bounds and RAM); if any check fails, nothing has happened yet
 * and the bundle runs through the general path, which handles every case
 * and reports faults precisely.  A plan's one memory store (st_tnsr) is kept
 * in c->x.st_host/st_src and committed last, by the same routine as a
 * planned store (a load in the bundle reads the old data).  V results go
 * to a slot buffer swapped with the register (TpcCpu.v), so a store planned
 * from a V register keeps seeing the old value.
 */
#include <string.h>

#include "nxemu/debug.h"
#include "nxemu/trace.h"
#include "target/tpc/cpu.h"
#include "target/tpc/direct.h"
#include "target/tpc/jit.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane.h"

/* Registers a slot reads or writes, one bit per register of each file
 * (IRF as whole registers: a masked write still orders against a read). */
typedef struct RegSet {
    uint64_t s, v;
    uint32_t sp, i, vp, ad;
    bool slm; /* the local memory (ld_l / st_l), so a load runs before a store */
} RegSet;

static bool regs_meet(const RegSet *a, const RegSet *b)
{
    return (a->s & b->s) || (a->v & b->v) || (a->sp & b->sp) || (a->i & b->i) || (a->vp & b->vp) ||
           (a->ad & b->ad) || (a->slm && b->slm);
}

static void add_reg(RegSet *r, unsigned kind, unsigned num)
{
    switch (kind) {
    case TPC_OP_S:
        r->s |= 1ull << (num % TPC_NR_S);
        break;
    case TPC_OP_V:
        r->v |= 1ull << (num % TPC_NR_V);
        break;
    case TPC_OP_I:
        r->i |= 1u << (num & 31);
        break;
    case TPC_OP_SP:
        r->sp |= 1u << (num & 31);
        break;
    case TPC_OP_VP:
        r->vp |= 1u << (num & 31);
        break;
    case TPC_OP_AD:
        r->ad |= 1u << (num & 31);
        break;
    default:
        break;
    }
}

static void add_op(RegSet *r, const TpcOperand *op)
{
    add_reg(r, op->kind, op->num);
}

/* What slot s's instruction reads, from the instruction description
 * (tpc_insn_reads: the operands, the predicate, a MAC's accumulator), the
 * same list the timing model uses, so no form needs a hand-kept list. */
static void add_reads(RegSet *r, unsigned s, const TpcInsn *in)
{
    TpcRegRead rr[TPC_MAX_READS];
    unsigned n = tpc_insn_reads(in, s, rr);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < rr[i].count; j++)
            add_reg(r, rr[i].kind, rr[i].num + j);
}

static bool scalar_src(const TpcOperand *op)
{
    return op->kind == TPC_OP_S || op->kind == TPC_OP_IMM || op->kind == TPC_OP_SIMM;
}

/* ---- direct executors: run after every prep succeeded, cannot fail ---- */
/* (plans take only SPRF predicates, hence tpc_pred_sp) */

static void run_ld_tnsr(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    uint8_t **r = &c->v[in->dst.num], **buf = &c->x.out[TPC_SLOT_LD].vbuf[0];
    uint8_t *out = *buf;
    tpc_prefetch_stream(span);
    /* the buffer becomes the register, then the copy (a tail call) */
    *buf = *r;
    *r = out;
    dc->lfn(out, span, span, span);
}

static void run_st_tnsr(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    /* committed after the bundle's steps (a load in it reads old data) */
    c->x.st_host = (uint8_t *)span;
    c->x.st_src = c->v[in->c.num];
}

static void run_staged(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span);

/* Operand B of a direct VPU instruction as a register image (A when
 * there is none, NOT). */
static inline const uint8_t *vl_src_b(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                                      const uint8_t *pa)
{
    if (in->b.kind == TPC_OP_V)
        return c->v[in->b.num];
    if (in->b.kind == TPC_OP_NONE)
        return pa;
    /* a loop's bundles broadcast the same scalars again and again: an
     * image kept per S register (and one for immediates) while its value
     * and element size stay */
    uint32_t v = tpc_rd_scalar(c, &dc->b, &in->b, NULL);
    unsigned e = tpc_type_size(in->type);
    TpcBcast *bc = &c->x.vbcast[dc->vbc];
    if (G_UNLIKELY(v != bc->val || e != bc->e)) {
        tpc_vl_broadcast(bc->img, v, e);
        bc->val = v;
        bc->e = e;
    }
    return bc->img;
}

/* Step dc->vfn with sources pa, pb into the slot buffer, which becomes
 * the register before the loop fills it: the sources and the old value
 * are read through pointers taken before, and the loop's last act is
 * then a tail call. */
static inline __attribute__((always_inline)) void vl_step(TpcCpu *c, const TpcDCacheEntry *dc,
                                                          const TpcInsn *in, const uint8_t *pa,
                                                          const uint8_t *pb)
{
    uint8_t **r = &c->v[in->dst.num], **buf = &c->x.out[TPC_SLOT_VPU].vbuf[0];
    uint8_t *out = *buf, *old = *r;
    *r = out;
    *buf = old;
    dc->vfn(out, pa, pb, old);
}

/* The same under a VPRF predicate: the result blended into the old value
 * over the lane mask, as vpu_arith does (tpc_pred_mask, tpc_merge). */
static inline __attribute__((always_inline)) void vl_step_vp(TpcCpu *c, const TpcDCacheEntry *dc,
                                                             const TpcInsn *in, const uint8_t *pa,
                                                             const uint8_t *pb, const uint8_t *m,
                                                             bool all)
{
    uint8_t **r = &c->v[in->dst.num], **buf = &c->x.out[TPC_SLOT_VPU].vbuf[0];
    dc->vfn(*buf, pa, pb, *r);
    if (!all)
        tpc_merge(*buf, *r, m);
    uint8_t *t = *r;
    *r = *buf;
    *buf = t;
}

/* A VPU arithmetic/logic instruction with a V result, run by the same
 * whole-register loop the staged executor (exec-vpu.c vpu_arith) reaches
 * through tpc_vl_arith, chosen once at planning (dc->vfn). */
static void run_vpu_vl(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    if (!tpc_pred_sp(c, in))
        return;
    const uint8_t *pa = c->v[in->a.num];
    vl_step(c, dc, in, pa, vl_src_b(c, dc, in, pa));
}

bool tpc_direct_is_vl(TpcDirectFn fn)
{
    return fn == run_vpu_vl;
}

bool tpc_direct_staged(TpcDirectFn fn)
{
    return fn == run_staged;
}

/* A VPU loop step under a VPRF predicate: the lane mask, then the loop
 * with source B (unary: A again, as run_vpu_un) blended over it. */
static inline __attribute__((always_inline)) void vpu_vp(TpcCpu *c, const TpcDCacheEntry *dc,
                                                         const TpcInsn *in, bool unary)
{
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, tpc_type_size(in->type), m, &all))
        return;
    const uint8_t *pa = c->v[in->a.num];
    vl_step_vp(c, dc, in, pa, unary ? pa : vl_src_b(c, dc, in, pa), m, all);
}

static void run_vpu_vl_vp(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                          const uint8_t *span)
{
    vpu_vp(c, dc, in, false);
}

bool tpc_direct_is_vl_vp(TpcDirectFn fn)
{
    return fn == run_vpu_vl_vp;
}

/* A one-source VPU loop (CONVERT between types of one size, NEARBYINT:
 * tpc_vl_convert_fn / tpc_vl_nearbyint_fn, the staged executors' own) */
static void run_vpu_un(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    if (!tpc_pred_sp(c, in))
        return;
    const uint8_t *pa = c->v[in->a.num];
    vl_step(c, dc, in, pa, pa);
}

static void run_vpu_un_vp(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                          const uint8_t *span)
{
    vpu_vp(c, dc, in, true);
}

/* The forms vpu_arith hands whole to tpc_vl_arith without carries: a V
 * result from a V source A and a V, scalar or immediate (or no, for NOT)
 * B, SP or VP predicate.  Not: register-pair results, VPRF logic, and
 * what lane-ops.def gives no loop (integer ADD, which also writes V_CARRY;
 * element-only rows): the loop is the one tpc_vl_arith would run
 * (tpc_vl_arith_fn), so this list cannot drift from vlane.c. */
static TpcVlFn vpu_vl_form(const TpcInsn *in)
{
    unsigned op = in->opc, t = in->type;
    bool b_ok = in->b.kind == TPC_OP_V || in->b.kind == TPC_OP_S || in->b.kind == TPC_OP_IMM ||
                in->b.kind == TPC_OP_SIMM || (in->b.kind == TPC_OP_NONE && op == TPC_OPC_SPU_not);
    if (!(in->desc->flags & TPC_F_VLOOP) || in->dst.kind != TPC_OP_V || in->a.kind != TPC_OP_V ||
        !b_ok || t == TPC_T_B || t >= TPC_T_COUNT)
        return NULL;
    if (tpc_vpu_pair_dest(op, t, in->sw))
        return NULL;
    return tpc_vl_arith_fn(op, t, in->sw);
}

/* VPU instructions that run through their own (staged) executor, committed
 * at once (tpc_commit_slot): the plan's order makes that equal to staging.
 * Only forms whose executor cannot fault once decoded are taken, since a
 * direct bundle cannot undo a slot that already ran: arithmetic and logic
 * (vpu_arith) but not a register-pair result with a bad first register,
 * compares, single selects, MOV without its reserved switch; operands from
 * registers, immediates or lane ids, never an LFSR (whose advance is the
 * staged loop's).  VP predicates are the executors' own blends. */
static bool vpu_operand_ok(const TpcOperand *op)
{
    switch (op->kind) {
    case TPC_OP_NONE:
    case TPC_OP_RAW:
    case TPC_OP_V:
    case TPC_OP_S:
    case TPC_OP_SP:
    case TPC_OP_VP:
    case TPC_OP_IMM:
    case TPC_OP_SIMM:
        return true;
    case TPC_OP_VSPECIAL:
        return op->num != TPC_VS_LFSR && op->num != TPC_VS_LFSR_NO_CHANGE;
    default:
        return false;
    }
}

static bool vpu_staged_form(const TpcInsn *in, RegSet *wr)
{
    /* (a VPU mov with SWITCHES bit 0 does not decode) */
    if (!(in->desc->flags & TPC_F_DIRECT) || !vpu_operand_ok(&in->a) || !vpu_operand_ok(&in->b) ||
        !vpu_operand_ok(&in->c) || !vpu_operand_ok(&in->d) ||
        (in->dst.kind != TPC_OP_V && in->dst.kind != TPC_OP_VP))
        return false;
    add_op(wr, &in->dst);
    if (in->dst.kind == TPC_OP_V && tpc_vpu_pair_dest(in->opc, in->type, in->sw)) {
        if ((in->dst.num & 1u) || in->dst.num + 1 >= TPC_NR_V)
            return false; /* the executor faults ILLEGAL_OPERAND */
        add_reg(wr, TPC_OP_V, in->dst.num + 1u);
    }
    return true;
}

/* CONVERT (VPU and SPU) and NEARBYINT (VPU): their executors fault only
 * for rounding mode 7 (CONVERT), a target type that is none and a
 * register pair out of range, all known at decode; sr reads the LFSR,
 * which advances after the bundle (the staged loop's), so it stays
 * staged.  Register pairs stay staged too.  A loop of one element size
 * with a mode known at decode (not DEFAULT, read from ROUND_CSR) is
 * returned in *loop; the slot's executor runs the rest. */
static bool rounding_form(const TpcInsn *in, bool vpu, TpcVlFn *loop)
{
    unsigned rm = in->sw & 7u, st = in->type;
    *loop = NULL;
    if (rm == TPC_RM_SR || !vpu_operand_ok(&in->a) || st >= TPC_T_COUNT || st == TPC_T_B)
        return false;
    if (in->opc == (vpu ? TPC_OPC_VPU_nearbyint : TPC_OPC_SPU_nearbyint)) {
        if (vpu && rm != TPC_RM_DEFAULT && in->a.kind == TPC_OP_V)
            *loop = tpc_vl_nearbyint_fn(st, rm);
        return true;
    }
    unsigned dt = in->b.raw & 15u;
    if (in->opc != (vpu ? TPC_OPC_VPU_convert : TPC_OPC_SPU_convert) || rm == 7 ||
        dt >= TPC_T_COUNT || dt == TPC_T_B)
        return false;
    if (vpu && (tpc_convert_pair_src(st, in->b.raw) || tpc_convert_pair_dest(st, in->b.raw)))
        return false;
    if (vpu && rm != TPC_RM_DEFAULT && in->a.kind == TPC_OP_V &&
        tpc_type_size(st) == tpc_type_size(dt))
        *loop = tpc_vl_convert_fn(st, dt, rm);
    return true;
}

/* An immediate operand's value (known at decode), or false. */
static bool imm_operand(const TpcBundle *b, const TpcOperand *op, uint32_t *v)
{
    if (op->kind == TPC_OP_IMM)
        *v = b->imm;
    else if (op->kind == TPC_OP_SIMM)
        *v = op->num;
    else
        return false;
    return true;
}

/* LD_L / ST_L of an SLM word at an immediate address, which cannot fault
 * (aligned and in range, tpc_check_local32; the CFG window's MMIO form
 * reaches devices and stays staged): the same word the staged executors
 * read and write (exec-ld.c, exec-st.c), at once, the plan's order
 * putting a load in the bundle before the store (RegSet.slm). */
static bool slm_form(const TpcBundle *b, const TpcInsn *in, uint32_t *addr)
{
    return !(in->b.raw & 1u) && imm_operand(b, &in->a, addr) && !(*addr & 3u) &&
           *addr < TPC_SLM_SIZE;
}

static void run_ld_l(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    if (!tpc_pred_sp(c, in))
        return;
    uint32_t a = tpc_rd_scalar(c, &dc->b, &in->a, NULL);
    memcpy(&c->s[in->dst.num % TPC_NR_S], c->slm + a, 4);
}

static void run_st_l(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    if (!tpc_pred_sp(c, in))
        return;
    uint32_t a = tpc_rd_scalar(c, &dc->b, &in->a, NULL);
    uint32_t v = tpc_rd_scalar(c, &dc->b, &in->c, NULL);
    memcpy(c->slm + a, &v, 4);
}

/* MOV of the load slot into a V register from a V, S or immediate operand
 * (the softmax's coefficients, mov.f32 V, S): its executor cannot fault
 * (exec-ld.c tpc_exec_ld_mov); the VP and scalar destinations stay staged. */
static bool ld_mov_form(const TpcInsn *in, RegSet *wr)
{
    if (in->dst.kind != TPC_OP_V || in->a.kind == TPC_OP_VSPECIAL || !vpu_operand_ok(&in->a) ||
        !vpu_operand_ok(&in->b))
        return false;
    add_op(wr, &in->dst);
    return true;
}

/* The int5 ADD (an IRF source and a scalar, per dim of the mask), once;
 * a_irf and skind constant in the instantiations below for the operands
 * compiled kernels use (an immediate or an S register: no operand-kind
 * cases per bundle), TPC_OP_NONE: any scalar, read by tpc_rd_scalar. */
static inline __attribute__((always_inline)) void irf_add(TpcCpu *c, const TpcDCacheEntry *dc,
                                                          const TpcInsn *in, bool a_irf,
                                                          unsigned skind)
{
    if (!tpc_pred_sp(c, in))
        return;
    const TpcOperand *sop = a_irf ? &in->b : &in->a;
    uint32_t v = skind == TPC_OP_IMM ? dc->b.imm
                 : skind == TPC_OP_S ? c->s[sop->num]
                                     : tpc_rd_scalar(c, &dc->b, sop, NULL);
    const int32_t *src = c->irf[(a_irf ? in->a.num : in->b.num) & 31];
    int32_t *dst = c->irf[in->dst.num & 31];
    bool ok; /* (ADD has an int5 form) */
    for (unsigned mk = (in->sw >> 2) & 0x1Fu; mk; mk &= mk - 1) {
        uint32_t x = (uint32_t)src[__builtin_ctz(mk)];
        dst[__builtin_ctz(mk)] = (int32_t)(a_irf ? tpc_lane_int5(TPC_OPC_SPU_add, x, v, &ok)
                                                 : tpc_lane_int5(TPC_OPC_SPU_add, v, x, &ok));
    }
}

static void run_irf_add(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    irf_add(c, dc, in, in->a.kind == TPC_OP_I, TPC_OP_NONE);
}

/* I = imm + I and I = S + I (the compilers' index steps), and I + imm */
static void run_irf_add_imm(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                            const uint8_t *span)
{
    irf_add(c, dc, in, false, TPC_OP_IMM);
}

static void run_irf_add_s(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    irf_add(c, dc, in, false, TPC_OP_S);
}

static void run_irf_add_i_imm(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                              const uint8_t *span)
{
    irf_add(c, dc, in, true, TPC_OP_IMM);
}

/* The instantiation for an int5 ADD's operands. */
static TpcDirectFn irf_add_fn(const TpcInsn *in)
{
    bool a_irf = in->a.kind == TPC_OP_I;
    unsigned k = a_irf ? in->b.kind : in->a.kind;
    if (k == TPC_OP_IMM)
        return a_irf ? run_irf_add_i_imm : run_irf_add_imm;
    if (k == TPC_OP_S && !a_irf)
        return run_irf_add_s;
    return run_irf_add;
}

static bool is_irf_add(TpcDirectFn fn)
{
    return fn == run_irf_add || fn == run_irf_add_imm || fn == run_irf_add_s ||
           fn == run_irf_add_i_imm;
}

/* SET_INDX of the LD, SPU and ST slots: the mask and destination fields differ */
static void set_indx(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, unsigned dst,
                     unsigned mask)
{
    if (!tpc_pred_sp(c, in))
        return;
    uint32_t v = tpc_rd_scalar(c, &dc->b, &in->a, NULL);
    int32_t *r = c->irf[dst & 31];
    for (unsigned mk = mask & 0x1Fu; mk; mk &= mk - 1)
        r[__builtin_ctz(mk)] = (int32_t)v;
}

static void run_set_indx_ld(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *s)
{
    set_indx(c, dc, in, in->dst.num, in->b.raw >> 2);
}

static void run_set_indx_spu(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *s)
{
    set_indx(c, dc, in, in->dst.num, in->sw >> 2);
}

static void run_set_indx_st(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *s)
{
    set_indx(c, dc, in, in->c.num, in->b.raw >> 2);
}

bool tpc_direct_set_indx(TpcDirectFn fn, const TpcInsn *in, unsigned *dst, unsigned *mask)
{
    if (fn == run_set_indx_ld || fn == run_set_indx_st)
        *dst = fn == run_set_indx_ld ? in->dst.num : in->c.num, *mask = in->b.raw >> 2;
    else if (fn == run_set_indx_spu)
        *dst = in->dst.num, *mask = in->sw >> 2;
    else
        return false;
    *mask &= 0x1Fu;
    return true;
}

/* SPU instructions through their own executor, as vpu_staged_form: the
 * scalar arithmetic, logic, compares and MOV of exec-spu.c (spu_arith,
 * spu_cmp, tpc_exec_spu_mov), whose only faults are an int5 (IRF) form of
 * an opcode without one; never an LFSR source. */
static bool spu_staged_form(const TpcInsn *in, RegSet *wr)
{
    if (!(in->desc->flags & TPC_F_DIRECT))
        return false;
    const TpcOperand *ops[3] = {&in->a, &in->b, &in->c};
    for (unsigned i = 0; i < 3; i++) {
        unsigned k = ops[i]->kind;
        if (k != TPC_OP_NONE && k != TPC_OP_RAW && k != TPC_OP_S && k != TPC_OP_SP &&
            k != TPC_OP_I && k != TPC_OP_IMM && k != TPC_OP_SIMM && k != TPC_OP_HWREG)
            return false;
    }
    if (in->dst.kind == TPC_OP_I) {
        if (!(in->desc->flags & TPC_F_INT5)) /* the table's int5 rows (insn-spu.def) */
            return false;
    } else if (in->dst.kind != TPC_OP_S && in->dst.kind != TPC_OP_SP) {
        return false;
    }
    add_op(wr, &in->dst);
    return true;
}

/* JMPR/JMPA through their own executor (exec-spu.c jump), whose only fault
 * is a target that is not a multiple of a bundle: an immediate target is
 * known at decode, and PCs are bundle-aligned, so an aligned immediate
 * cannot fault (a register target could, and stays staged).  A jump writes
 * no register; the loop applies the target it leaves in the slot's
 * TpcSlotOut as the staged path does (tpc_jump_to). */
static bool spu_jump_form(const TpcBundle *b, const TpcInsn *in)
{
    uint32_t t;
    return imm_operand(b, &in->a, &t) && t % TPC_BUNDLE == 0;
}

/* A slot through its own executor (dc->dexec), committed at once; cannot
 * fail: vpu_staged_form, spu_staged_form, spu_jump_form. */
static void run_staged(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, const uint8_t *span)
{
    unsigned s = (unsigned)(in - dc->b.slot);
    TpcSlotOut *o = &c->x.out[s];
    o->nw = 0;
    o->jump = false;
    dc->dexec[s](c, &dc->b, in, o);
    tpc_commit_slot(c, o);
}

/* ---- planning ---- */

/* The direct form of slot s's instruction with its register sets, or false. */
static bool direct_form(TpcDCacheEntry *dc, unsigned s, const TpcInsn *in, TpcDirectFn *fn,
                        bool *prep, RegSet *rd, RegSet *wr)
{
    add_reads(rd, s, in);
    *prep = false;
    *fn = NULL;
    if (s == TPC_SLOT_VPU) {
        /* the lane loop itself, chosen here, where tpc_vl_arith has one
         * (mac8: 225 host instructions per bundle, against 343 through
         * tpc_vl_arith at every call, bench/tpc-kernels.sh CALLGRIND=1),
         * the slot's executor otherwise */
        if ((dc->vfn = vpu_vl_form(in)) != NULL) {
            dc->vbc = (uint8_t)(in->b.kind == TPC_OP_S ? in->b.num % TPC_NR_S : TPC_NR_S);
            add_op(wr, &in->dst);
            *fn = in->pred_vp ? run_vpu_vl_vp : run_vpu_vl;
            return true;
        }
        TpcVlFn loop;
        if (in->dst.kind == TPC_OP_V && rounding_form(in, true, &loop)) {
            add_op(wr, &in->dst);
            if ((dc->vfn = loop) != NULL)
                *fn = in->pred_vp ? run_vpu_un_vp : run_vpu_un;
            return true; /* (else fn NULL: the slot's executor) */
        }
        return vpu_staged_form(in, wr); /* (fn NULL: the slot's executor) */
    }
    if (in->pred_vp)
        return false;
    if (in->opc == TPC_OPC_LD_set_indx && (s == TPC_SLOT_LD || s == TPC_SLOT_ST) && scalar_src(&in->a)) {
        const TpcOperand *d = s == TPC_SLOT_LD ? &in->dst : &in->c;
        if (d->kind != TPC_OP_I)
            return false;
        add_op(wr, d);
        *fn = s == TPC_SLOT_LD ? run_set_indx_ld : run_set_indx_st;
        return true;
    }
    switch (s) {
    case TPC_SLOT_LD:
        /* mov (fn NULL: the slot's executor) */
        if (in->desc->flags & TPC_F_DIRECT)
            return ld_mov_form(in, wr);
        uint32_t addr;
        if (in->opc == TPC_OPC_LD_ld_l && in->dst.kind == TPC_OP_S && slm_form(&dc->b, in, &addr)) {
            add_op(wr, &in->dst);
            rd->slm = true;
            *fn = run_ld_l;
            return true;
        }
        if (in->opc != TPC_OPC_LD_ld_tnsr || !tpc_tensor_fast_form(in, &in->dst))
            return false;
        add_op(wr, &in->dst);
        dc->lfn = tpc_vl_mov_fn();
        *fn = run_ld_tnsr;
        *prep = true;
        return true;
    case TPC_SLOT_ST: {
        uint32_t addr;
        if (in->opc == TPC_OPC_ST_st_l && (in->c.kind == TPC_OP_S || in->c.kind == TPC_OP_IMM) &&
            slm_form(&dc->b, in, &addr)) {
            wr->slm = true;
            *fn = run_st_l;
            return true;
        }
        if (in->opc != TPC_OPC_ST_st_tnsr || !tpc_tensor_fast_form(in, &in->c))
            return false;
        *fn = run_st_tnsr;
        *prep = true;
        dc->dstore = true;
        return true;
    }
    default: /* SPU */
        if (in->opc == TPC_OPC_SPU_set_indx && scalar_src(&in->a) && in->dst.kind == TPC_OP_I) {
            add_op(wr, &in->dst);
            *fn = run_set_indx_spu;
            return true;
        }
        if (in->desc->form == TPC_FORM_JMP)
            return spu_jump_form(&dc->b, in); /* (fn NULL: the slot's executor) */
        TpcVlFn none;
        if (in->dst.kind == TPC_OP_S && rounding_form(in, false, &none)) {
            add_op(wr, &in->dst);
            return true; /* (fn NULL: the slot's executor) */
        }
        if (tpc_spu_irf_add_form(in)) {
            add_op(wr, &in->dst);
            *fn = irf_add_fn(in);
            return true;
        }
        return spu_staged_form(in, wr); /* (fn NULL: the slot's executor) */
    }
}

/* Whether a step keeps every IRF coordinate an affine function of the
 * loop plan's trip number (loop_hoist): it writes no SP register (so each
 * predicate is the same in every trip) and writes IRF dims only by adding
 * a trip-invariant scalar in place or by setting them to a scalar that
 * moves by a constant per trip (an immediate, or an S register: *add_s and
 * *set_s collect those; the body must write none of them, and must not add
 * the innermost loop's iterator, which moves by the step, so a dim adding
 * it would move by more each trip).  Copies between IRF registers are out:
 * through them a dim could take another's value each trip and not move by
 * a constant. */
static bool hoist_form(const TpcInsn *in, TpcDirectFn fn, const RegSet *wr, uint64_t *add_s,
                       uint64_t *set_s)
{
    if (wr->sp)
        return false;
    if (!wr->i)
        return true;
    const TpcOperand *v;
    uint64_t *srcs;
    if (is_irf_add(fn)) {
        bool a_irf = in->a.kind == TPC_OP_I;
        if ((a_irf ? in->a.num : in->b.num) != in->dst.num)
            return false;
        v = a_irf ? &in->b : &in->a;
        srcs = add_s;
    } else if (fn == run_set_indx_ld || fn == run_set_indx_spu || fn == run_set_indx_st) {
        v = &in->a;
        srcs = set_s;
    } else {
        return false;
    }
    if (v->kind == TPC_OP_S) {
        *srcs |= 1ull << (v->num % TPC_NR_S);
        return true;
    }
    return v->kind == TPC_OP_IMM || v->kind == TPC_OP_SIMM;
}

void tpc_direct_plan(TpcDCacheEntry *dc)
{
    const TpcBundle *bp = &dc->b;
    dc->direct = false;
    dc->dstore = false; /* (direct_form sets it for a st_tnsr) */
    if (bp->is_loop || bp->halt)
        return; /* (an all-NOP bundle is direct: nothing to run) */
    unsigned n = dc->nact;
    RegSet rd[4] = {{0}}, wr[4] = {{0}};
    TpcDirectFn fn[4];
    bool prep[4];
    for (unsigned k = 0; k < n; k++)
        if (!direct_form(dc, dc->act[k], &bp->slot[dc->act[k]], &fn[k], &prep[k], &rd[k], &wr[k]))
            return;
    /* two slots writing one register: the general path applies its rule */
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = a + 1; b < n; b++)
            if (regs_meet(&wr[a], &wr[b]))
                return;
    /* an order where a slot never runs after one writing what it reads:
     * repeatedly take a slot none of the remaining others must precede */
    unsigned done = 0, m = 0;
    dc->nprep = 0;
    while (m < n) {
        unsigned pick = n;
        for (unsigned k = 0; k < n && pick == n; k++) {
            if (done & (1u << k))
                continue;
            bool ok = true;
            for (unsigned j = 0; j < n && ok; j++)
                if (j != k && !(done & (1u << j)) && regs_meet(&wr[k], &rd[j]))
                    ok = false; /* j reads what k writes: j first */
            if (ok)
                pick = k;
        }
        if (pick == n)
            return; /* a cycle (e.g. two slots swapping registers) */
        done |= 1u << pick;
        unsigned s = dc->act[pick];
        dc->din[m] = &bp->slot[s];
        dc->dfn[m] = fn[pick] ? fn[pick] : run_staged;
        dc->dexec[s] = dc->fn[pick];
        if (prep[pick])
            dc->dprep[dc->nprep++] = (uint8_t)m;
        m++;
    }
    if (dc->nprep > 2)
        return; /* (only the LD and ST slots prepare spans: tpc_direct_run takes two) */
    dc->dhoist = true;
    dc->dws = dc->dadd_s = dc->dset_s = 0;
    for (unsigned k = 0; k < n; k++) {
        dc->dws |= wr[k].s;
        if (!hoist_form(&bp->slot[dc->act[k]], fn[k], &wr[k], &dc->dadd_s, &dc->dset_s))
            dc->dhoist = false;
    }
    dc->direct = true;
}

/* What observes the direct loop's bundles (tpc_run_quiet) */
enum { OBS_RECORD = 1, OBS_COUNT = 2, OBS_EXEC = 4 };

/* After a direct bundle ran: its trace record closed or its execution
 * counted (-coverage alone), and its -d exec line. */
G_NO_INLINE static void direct_observed(TpcCpu *c, TpcDCacheEntry *dc, unsigned obs)
{
    if (obs & OBS_RECORD)
        trace_insn_end(c->m, &c->parent);
    else if (obs & OBS_COUNT)
        tpc_cov_note(c, dc, 1);
    if (obs & OBS_EXEC)
        tpc_log_bundle(c, dc->raw, "exec");
}

/* A compiled body (jit.c) from c->pc when it is a bundle of the innermost
 * loop's body: at a slice's start and after a LOOP's delay slot (which
 * enters the body), so no trip of a compiled body runs bundle by bundle
 * but one a failed check left (to its end). */
static inline void jit_enter(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd)
{
    if (!c->nloops || c->in_delay_slot)
        return;
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    uint32_t body = f->body, end = f->end, start = c->pc;
    if (start - body > end - body || tpc_lp_failed(c, f) || tpc_jit_declined(c, f))
        return;
    /* a breakpoint in the body: the direct loop stops there */
    if (G_UNLIKELY(c->x.nbp) && tpc_body_has_bp(c, body, end))
        return;
    uint64_t lnd = 0;
    tpc_jit_loop(c, n, max_bundles, &lnd);
    *nd += lnd;
    c->x.loop_total += lnd;
    if (G_UNLIKELY(c->parent.trace) && lnd && trace_counts_insns(c->parent.trace))
        tpc_loop_cov(c, body, end, start, lnd);
}

/* The loop while nothing observes single bundles (no debugger, trace or
 * exec log): a decoded bundle with a direct plan runs in tpc_direct_run,
 * anything else (and a direct bundle whose checks fail) in step_one. */
uint64_t tpc_run_quiet(TpcCpu *c, uint64_t max_bundles)
{
    uint64_t n = 0, nd = 0; /* nd: direct bundles not yet in the counters */
    /* fetch window: only step_one changes it (direct bundles neither fetch
     * through the slow path nor write devices, nor stop or fault the core,
     * so the state and stop checks follow step_one only) */
    const uint8_t *host = c->x.code_host;
    uint32_t lo = c->x.code_lo, hi = c->x.code_hi;
    if (c->parent.state != CPU_RUNNING || c->m->stop)
        return 0;
    /* -d exec: a direct bundle cannot fault, so its line after the bundle
     * ran reads as the staged path's line before it */
    bool log_exec = nx_log_enabled(&c->m->log, NX_LOG_EXEC);
    /* -d commit / -trace-json: a record around each direct bundle, as the
     * staged path makes one.  Only plans without tensor accesses, which
     * cannot fall back once the record is open (and whose memory effects
     * the trace's access hook must see, not a host span).  -d stats alone
     * needs no record per bundle (its TPC figures are the core's counters
     * and the kernel's launch and finish), so it observes the engine an
     * unobserved run uses. */
    bool traced = trace_needs_insn_records(c->parent.trace);
    /* -coverage without those: every tier runs, counting executions per
     * decode-cache entry (tpc_cov_note; handed over by tpc_cov_flush) */
    bool counted = !traced && trace_counts_insns(c->parent.trace);
    /* (one flag for the three in the loop: a live flag each cost lrelu's
     * direct loop 5 host instructions a bundle) */
    const unsigned obs =
        (traced ? OBS_RECORD : 0) | (counted ? OBS_COUNT : 0) | (log_exec ? OBS_EXEC : 0);
    /* loop plans: only while nothing observes (a record or a line per
     * bundle would need the loop top) */
    bool fuse = !traced && !log_exec;
    bool jit = fuse && c->x.jit_on;
    if (jit)
        jit_enter(c, &n, max_bundles, &nd);
    while (n < max_bundles) {
        uint32_t pc = c->pc;
        TpcDCacheEntry *dc = &c->x.dcache[(pc / TPC_BUNDLE) % TPC_DCACHE_SIZE];
        /* a gdb breakpoint of this TPC: the bundle at pc is not executed */
        if (G_UNLIKELY(c->x.nbp) && tpc_bp_at(c, pc) && nx_debug_should_stop(c->m, &c->parent, pc))
            break;
        n++;
        /* current: compared at this PC since the last write to the marked
         * kernel; else compare the bytes (the fetch window is needed then
         * only) */
        bool current = dc->gen == c->x.code_gen && dc->gen_pc == pc && c->x.code_marked;
        bool go = dc->direct && !c->in_delay_slot &&
                  (current || (host && pc - lo < hi - lo && hi - pc >= TPC_BUNDLE &&
                               tpc_bundle_eq(dc->raw, host + (pc - lo))));
        if (G_UNLIKELY(obs & OBS_RECORD) && go) {
            go = dc->nprep == 0;
            if (go)
                trace_insn_begin(c->m, &c->parent, pc, dc->raw, TPC_BUNDLE);
        }
        if (G_LIKELY(go && tpc_direct_run(c, dc))) {
            if (G_UNLIKELY(obs))
                direct_observed(c, dc, obs);
            nd++;
            if (G_UNLIKELY(dc->spu_jmp) && c->x.out[TPC_SLOT_SPU].jump)
                tpc_jump_to(c, c->x.out[TPC_SLOT_SPU].jump_pc);
            else if (c->nloops && c->loops[c->nloops - 1].end == pc) {
                c->pc = tpc_loop_end_fast(c, pc);
                if (fuse && c->nloops && c->pc == c->loops[c->nloops - 1].body)
                    tpc_enter_loop_plan(c, &n, max_bundles, &nd);
            } else {
                c->pc = pc + TPC_BUNDLE;
            }
            continue;
        }
        /* step_one may finish the core, which reports the counters */
        c->cycles += nd;
        c->bundles += nd;
        c->parent.retired += nd;
        c->x.direct_total += nd;
        nd = 0;
        bool delay = c->in_delay_slot, more = tpc_step_one(c);
        host = c->x.code_host;
        lo = c->x.code_lo;
        hi = c->x.code_hi;
        if (!more) {
            if (G_UNLIKELY(c->watch_stop)) {
                c->watch_stop = false;
                n--; /* abandoned: nothing of it happened */
            }
            break;
        }
        if (c->parent.state != CPU_RUNNING || c->m->stop)
            break;
        if (G_UNLIKELY(jit && delay))
            jit_enter(c, &n, max_bundles, &nd);
    }
    c->cycles += nd;
    c->bundles += nd;
    c->parent.retired += nd;
    c->x.direct_total += nd;
    return n;
}
