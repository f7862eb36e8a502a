/*
 * TPC (Gaudi, generation 2) instruction description and decoded bundle form.
 *
 * The ISA lives in one table per slot: insn-ld.def, insn-spu.def,
 * insn-vpu.def, insn-st.def.  Decoder, disassembler and assembler derive from
 * those rows; the executor (helper code in target/tpc/exec*.c) builds its
 * dispatch from the same rows.  Row format, one X-macro per slot:
 *
 *   TPC_LD (opc, name, FORM, TYPES, SWS, flags)   executes: tpc_exec_ld_<name>
 *   TPC_SPU(opc, name, FORM, TYPES, SWS, flags)   executes: tpc_exec_spu_<name>
 *   TPC_VPU(opc, name, FORM, TYPES, SWS, flags)   executes: tpc_exec_vpu_<name>
 *   TPC_ST (opc, name, FORM, TYPES, SWS, flags)   executes: tpc_exec_st_<name>
 *
 * plus two variants with the same arguments, which default to nothing when the
 * includer does not define them (so a dispatch table built from TPC_<SLOT>
 * alone needs no function for them):
 *
 *   TPC_<SLOT>_N  defined opcode that executes as a no-op (nop, dbg, prefetch,
 *                 events, cache ops): no exec function
 *   TPC_<SLOT>_U  defined but outside the nxemu subset: decoded and printed,
 *                 tpc_decode_bundle faults UNIMPLEMENTED (tpc.md §4.6)
 *
 *   opc    slot opcode (LD/ST 5 bits, SPU/VPU 6 bits)
 *   name   lowercase C identifier; the printed mnemonic is #name
 *   FORM   operand form, token X of TPC_FORM_X: which fields are registers,
 *          immediates or raw switch fields, and how the line is written
 *   TYPES  allowed OPERANDS_TYPE set, token X of TPC_TT_X (NONE = untyped)
 *   SWS    switch set, token X of TPC_SWS_X (names and bit positions of the
 *          instruction's switches, see asm/disas)
 *   flags  0 or TPC_F_* (plain C expression)
 *
 * An X-macro user writes e.g.
 *   #define TPC_SPU(opc, name, form, types, sws, flags) [opc] = tpc_exec_spu_##name,
 *   #include "target/tpc/insn-spu.def"
 * Each .def file #undefs all its macros at its end.
 */
#ifndef TARGET_TPC_INSN_H
#define TARGET_TPC_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nxemu/fault.h"

#define TPC_BUNDLE_BYTES 32

/* Slot numbers, also the FAULT_INFO slot values of tpc.md §6.6. */
typedef enum TpcSlot {
    TPC_SLOT_LD = 0,
    TPC_SLOT_SPU = 1,
    TPC_SLOT_VPU = 2,
    TPC_SLOT_ST = 3,
    TPC_SLOT_BUNDLE = 4, /* LOOP: the whole bundle */
} TpcSlot;

/* TPC fault codes (tpc.md §6.6), stored in NxFault.code. */
enum {
    TPC_FAULT_ILLEGAL_OPCODE = 1,
    TPC_FAULT_ILLEGAL_OPERAND = 2,
    TPC_FAULT_ILLEGAL_INSTRUCTION = 3,
    TPC_FAULT_UNIMPLEMENTED = 4,
    TPC_FAULT_MISALIGNED = 5,
    TPC_FAULT_SLM_RANGE = 6,
    TPC_FAULT_VLM_RANGE = 7,
    TPC_FAULT_GLOBAL_FAULT = 8,
    TPC_FAULT_TENSOR_CONFIG = 9,
    TPC_FAULT_LOOP_DEPTH = 10,
    TPC_FAULT_PC_RANGE = 11,
    TPC_FAULT_BUNDLE_CONFLICT = 12,
};

/* "field" of an ILLEGAL_OPERAND FAULT_INFO (slot | field << 4 | value << 8).
 * For LOOP: SRC_A = START, SRC_B = BOUNDARY, DEST = STEP register field. */
enum {
    TPC_FIELD_DEST = 0,
    TPC_FIELD_SRC_A = 1,
    TPC_FIELD_SRC_B = 2,
    TPC_FIELD_SRC_C = 3,
    TPC_FIELD_SRC_D = 4,
    TPC_FIELD_TYPE = 5,
    TPC_FIELD_PRED = 6,
    TPC_FIELD_SW = 7, /* the SWITCHES field (a number operand of a layout, e.g. a step) */
    TPC_FIELD_COUNT = 8,
};

/* OPERANDS_TYPE codes (tpc.md §5.0.2). */
enum {
    TPC_T_F32 = 0,
    TPC_T_BF16 = 1,
    TPC_T_I32 = 2,
    TPC_T_U32 = 3,
    TPC_T_I8 = 4,
    TPC_T_U8 = 5,
    TPC_T_B = 6,
    TPC_T_I16 = 7,
    TPC_T_U16 = 8,
    TPC_T_COUNT = 9,
};

/* Allowed-type sets (bit = 1 << type code). */
#define TPC_TT_NONE  0u
#define TPC_TT_F32   (1u << TPC_T_F32)
#define TPC_TT_BF16  (1u << TPC_T_BF16)
#define TPC_TT_I32   (1u << TPC_T_I32)
#define TPC_TT_U32   (1u << TPC_T_U32)
#define TPC_TT_I8    (1u << TPC_T_I8)
#define TPC_TT_U8    (1u << TPC_T_U8)
#define TPC_TT_B     (1u << TPC_T_B)
#define TPC_TT_I16   (1u << TPC_T_I16)
#define TPC_TT_U16   (1u << TPC_T_U16)
#define TPC_TT_FLOAT (TPC_TT_F32 | TPC_TT_BF16)
#define TPC_TT_INT   (TPC_TT_I32 | TPC_TT_U32 | TPC_TT_I8 | TPC_TT_U8 | TPC_TT_I16 | TPC_TT_U16)
#define TPC_TT_ALL   (TPC_TT_FLOAT | TPC_TT_INT)
#define TPC_TT_ALLB  (TPC_TT_ALL | TPC_TT_B)
/* VPU MAC: f32, bf16, i16, u16; VPU MUL adds i32/u32 */
#define TPC_TT_VMAC (TPC_TT_FLOAT | TPC_TT_I16 | TPC_TT_U16)
#define TPC_TT_VMUL (TPC_TT_VMAC | TPC_TT_I32 | TPC_TT_U32)
/* PACK/UNPACK: the 8- and 16-bit types */
#define TPC_TT_PACK (TPC_TT_BF16 | TPC_TT_I16 | TPC_TT_U16 | TPC_TT_I8 | TPC_TT_U8)
/* UDIV_4STEP: the unsigned types */
#define TPC_TT_UDIV (TPC_TT_U32 | TPC_TT_U16 | TPC_TT_U8)

/* Element size in bytes of a type code (B counts 1). */
static inline unsigned tpc_type_size(unsigned t)
{
    static const uint8_t sz[TPC_T_COUNT] = {4, 2, 4, 4, 1, 1, 1, 2, 2};
    return t < TPC_T_COUNT ? sz[t] : 4;
}

static inline bool tpc_type_is_float(unsigned t)
{
    return t == TPC_T_F32 || t == TPC_T_BF16;
}

static inline bool tpc_type_is_signed(unsigned t)
{
    return t == TPC_T_I32 || t == TPC_T_I16 || t == TPC_T_I8;
}

/* Operand forms.  Field use per form (A, B, C, D = SRC_A..SRC_D, Dst = DEST;
 * LD: A = LD SRC_A, B = LD SRC_B (shared bits 81:73), Dst = LD DEST;
 * ST: A, B = ST SRC_A, SRC_B, C = ST SRC_C (shared bits 72:65)). */
typedef enum TpcForm {
    TPC_FORM_LOOP, /* whole-bundle LOOP, TpcBundle.loop */
/* table-described forms (TpcLayout), one per row of insn-forms.def */
#define TPC_LAYOUT(name, flags, ...) TPC_FORM_##name,
#define TPC_LAYOUT0(name, flags)     TPC_FORM_##name,
#define TPC_FORMV(name)              TPC_FORM_##name,
#include "target/tpc/insn-forms.def"
    TPC_FORM_COUNT,
} TpcForm;

/* Switch sets (names and positions are in the assembler/disassembler). */
typedef enum TpcSws {
    TPC_SWS_NONE,
    TPC_SWS_MAC,         /* 0 st, 1 neg, 2 acc_fp32 */
    TPC_SWS_MUL_SPU,     /* 2 upper32 (i32/u32) / acc_fp32 (bf16) */
    TPC_SWS_MUL_VPU,     /* 1 double_and_round32, 2 acc_fp32 */
    TPC_SWS_ADD,         /* 0 st, 1 carry */
    TPC_SWS_SUB,         /* 0 st, 1 neg */
    TPC_SWS_CMP_EQ,      /* 0 mask_eq_zero */
    TPC_SWS_ASH,         /* 0 st (always), 1 rhu */
    TPC_SWS_CONVERT,     /* rounding mode, target type, lane_sel, num_lanes */
    TPC_SWS_PACK,        /* source_group, element_stride */
    TPC_SWS_UNPACK,      /* source_group, element_stride, group_half */
    TPC_SWS_MOV_DG,      /* src, dst, wr_lg, wr_ug / all: sdg0..3, weg0..3 */
    TPC_SWS_MOV_G,       /* g_en, dg_en */
    TPC_SWS_MOV,         /* from_hw_reg (SW0), the VPRF section (SRC_B[3:0]) */
    TPC_SWS_MMIO,        /* LD_L/ST_L B[0] */
    TPC_SWS_LD_TNSR,     /* partial (SW0), tensor in S27 (SW3) */
    TPC_SWS_ST_TNSR,     /* partial (SW0), rmw_sel (SW1), pack (SW2), tensor in S28 (SW3) */
    TPC_SWS_ASO,         /* dec, vpu */
    TPC_SWS_NEARBYINT,   /* rounding mode in SW[2:0] */
    TPC_SWS_EXTRACT_EXP, /* biased */
    TPC_SWS_CALC_FP,     /* func in SW[2:0] */
    TPC_SWS_FORM_FP_NUM, /* flags in SRC_D */
    TPC_SWS_GET_LUT,     /* funcid in SRC_B[7:5] */
    TPC_SWS_LOOKUP,      /* dt (BV32 only), upper_half */
    TPC_SWS_LOOKUP_C,    /* dt (BV32, BV16), upper_half */
    TPC_SWS_CVT_INT,     /* lane_sel (VPU), rm and to in OPERANDS_TYPE */
    TPC_SWS_CVT_INT16,   /* lane_sel (VPU), rm in OPERANDS_TYPE */
    TPC_SWS_POPCNT,      /* set */
    TPC_SWS_FIND_FIRST,  /* set, dir */
    TPC_SWS_COUNT,
} TpcSws;

enum {
    TPC_F_INT5 = 1u << 0,   /* SPU: also an int5 form (I destination, dim mask SW[6:2]) */
    TPC_F_NOPRED = 1u << 1, /* unconditional: predicate fields ignored (HALT) */
    TPC_F_GAUDI_NO = 1u << 2,
    TPC_F_LOW = 1u << 4,   /* the _low half form of a vector load/store */
    TPC_F_HIGH = 1u << 5,  /* the _high half form */
    TPC_F_SHIFT = 1u << 3, /* SPU shl/shr: the int5 form shifts an I register (SRC_A) */
    TPC_F_VEC_B = 1u << 6, /* VPU shuffle: SRC_B is a vector register, never a scalar */
    TPC_F_PCREL = 1u << 7, /* jmpr: a TPC_OPF_TARGET operand is relative to the bundle */
    /* reads its destination: MAC accumulates into it, udiv_4step steps its pair */
    TPC_F_ACC = 1u << 8,
    /* VPU: the destination is a pair (D) for 16-bit types and bf16 acc_fp32 */
    TPC_F_PAIR16 = 1u << 9,
    /* VPU: also for 32-bit integers unless SWITCHES bit 1 (double_and_round32) */
    TPC_F_PAIR32 = 1u << 10,
    /* the result is not of OPERANDS_TYPE: counts, exponents, classes, LUT
     * entries (the kernel checker and docs say what it is instead) */
    TPC_F_RES_OTHER = 1u << 11,
    /* VPU convert: a D destination for bf16 -> f32, a source pair for f32 ->
     * bf16 of all lanes (tpc_convert_pair_dest/src) */
    TPC_F_CVT_PAIR = 1u << 12,
    /* its executor cannot fault once decoded (but for a pair destination's
     * first register): a direct bundle runs it through that executor
     * (cpu-direct.c's staged slots) */
    TPC_F_DIRECT = 1u << 13,
    /* VPU: a direct bundle may run its whole-register loop of lane-ops.def
     * (cpu-direct.c vpu_vl_form) */
    TPC_F_VLOOP = 1u << 14,
};

typedef struct TpcInsnDesc {
    const char *mnemonic;
    uint8_t slot; /* TpcSlot */
    uint8_t opc;
    uint8_t form; /* TpcForm */
    uint8_t sws;  /* TpcSws */
    uint16_t types;
    uint16_t flags; /* TPC_F_* */
    uint8_t kind; /* 0 executes, 1 no-op (_N row), 2 unimplemented (_U row) */
} TpcInsnDesc;

enum { TPC_KIND_EXEC = 0, TPC_KIND_NOP = 1, TPC_KIND_UNIMPL = 2 };

/* ---- switches (tpc.md §5, §8.7): names, fields and how they print ---- */

/* Encoding field a switch lives in. */
enum {
    TPC_SWF_SW, /* the slot's SWITCHES field */
    TPC_SWF_A,  /* SRC_A (ASO) */
    TPC_SWF_B,  /* SRC_B (convert, pack, mov_dg, mov_g, mmio, ...) */
    TPC_SWF_C,  /* SRC_C (mov_dg.all weg*) */
    TPC_SWF_D,  /* SRC_D (VPU) */
    TPC_SWF_T,  /* OPERANDS_TYPE used as a switch field (convert_int*: rounding, to_16) */
};

/* How a table-described form (TpcLayout) prints a switch; hand-written
 * printers of the older forms ignore it. */
enum {
    TPC_SWP_WORD,   /* one bit: the key when set; else the value's name when != dflt */
    TPC_SWP_KEYVAL, /* key=value (value name if it has one, else decimal) when != dflt */
    TPC_SWP_ALWAYS, /* key=value always */
    TPC_SWP_NAME,   /* the value's name always */
    TPC_SWP_NEVER,  /* implied by the operands or by another switch */
    TPC_SWP_LEAD,   /* key=value always; a bare number before the operands also sets it */
    TPC_SWP_TRAIL,  /* as WORD; a bare number after the operands also sets it (the
                     * vendor's `get_lut_entry_and_interval_start.f32 D4, V2, 1, 1`) */
    TPC_SWP_BIN,    /* key=0bN..N always, the fewest binary digits (mov_g's masks) */
    TPC_SWP_HEX,    /* key=0xN always (mov_dg's wr_lg, wr_ug) */
    TPC_SWP_SUFFIX, /* one bit: `.key` right after the mnemonic when set (mov_dg.all) */
    /* as WORD, with the default tpc_sw_default() gives: convert's num_lanes,
     * single_lane for f32 -> bf16, none for bf16 -> f32 (always printed) */
    TPC_SWP_LANES,
    /* the value as a bare number before the operands when != dflt; a bare
     * number before or after the operands sets it (mov's VPRF section:
     * `mov 0x3 VP4, S1`, also `mov VP4, S1, 3`) */
    TPC_SWP_BARE,
};

/* Value name of a multi-bit switch, or alias of a one-bit one. */
typedef struct TpcSwVal {
    const char *name;
    uint8_t value;
} TpcSwVal;

typedef struct TpcSwDef {
    const char *key;   /* one-bit switch word, or key of key=value */
    const char *alias; /* second spelling of the key, or NULL */
    uint8_t field;     /* TPC_SWF_* */
    uint8_t shift, width;
    uint8_t slots;          /* bit mask of slots where the switch exists (0 = all) */
    const TpcSwVal *values; /* multi-bit: value names (NULL-terminated); NULL = one-bit */
    bool int_values;        /* multi-bit: integers are placed as written */
    uint8_t dflt;           /* value when the switch is not written */
    uint8_t print;          /* TPC_SWP_* (table-described forms) */
    bool strict;            /* values: a field value without a name is ILLEGAL_INSTRUCTION */
    uint16_t types;         /* OPERANDS_TYPE set the switch is valid for (0: any), as the
                             * vendor's InstructionDB: set elsewhere, ILLEGAL_INSTRUCTION */
    uint16_t vars;          /* the variants of the form (bit i: TPC_VARIANT row i) the
                             * switch exists in (0: all): mov_dg's src= only without .all */
} TpcSwDef;

/* Default value of switch sw of an instruction of OPERANDS_TYPE type whose
 * SRC_B switch word is b; -1 when every value prints (TPC_SWP_LANES). */
int tpc_sw_default(const TpcSwDef *sw, unsigned type, unsigned b);

/* Switches of a switch set, NULL-terminated list; NULL for TPC_SWS_NONE.
 * The list order is the printing order. */
const TpcSwDef *tpc_sws_table(unsigned sws);

/* ---- table-described operand forms ----
 *
 * A TpcLayout lists a form's operands in assembly order: the encoding field
 * each lives in, the register files / immediates it accepts, and whether it
 * names a register pair.  Decoder, printer and encoder walk the same list
 * (tpc_decode_layout, the disassembler's print_layout, asm_enc_layout); the
 * forms are the rows of insn-forms.def.  Forms without a layout (NULL) are
 * the older hand-coded ones. */
typedef struct TpcOpSpec {
    uint8_t field;  /* TPC_FIELD_DEST .. TPC_FIELD_SRC_D, or TPC_FIELD_SW */
    uint8_t group;  /* 0: single register; 2: V pair (D) or S pair (Z) */
    uint16_t kinds; /* TPC_OP_* bit mask; TPC_OP_RAW: a number placed in the field */
    uint8_t shift, width; /* TPC_OP_RAW: the number's bits in the field (width 0: all) */
    uint16_t flags;       /* TPC_OPF_* */
    uint8_t max;          /* TPC_OP_RAW: largest valid value (0: any that fits) */
    /* TPC_OPF_TNSR, TPC_OPF_SWREG: the register S<sreg> the operand may be
     * written as, the SWITCHES bit that says so, and (TNSR) the field's
     * value when it is */
    uint8_t sreg, swbit, sregval;
} TpcOpSpec;

enum {
    /* printed before the register operands as a bare word (`udiv_4step.u32 0x5 Z4, S1`) */
    TPC_OPF_PREFIX = 1u << 0,
    /* the number is also the bundle's 32-bit IMM: the vendor's assembler puts
     * LOOKUP's function id in both (`lookup BV32 V1, V2, 0x1`: IMM = 1) */
    TPC_OPF_IMM = 1u << 1,
    /* an int5 dim mask (SWITCHES[6:2]): written `bMMMMM` before the operands */
    TPC_OPF_DIMMASK = 1u << 2,
    /* a V destination that is a pair when tpc_vpu_pair_dest() says so (VPU
     * MAC/MUL of bf16 acc_fp32, 16-bit and 32-bit integer types) */
    TPC_OPF_VPAIR = 1u << 3,
    /* a dim mask written as an operand, between commas (`set_indx I2, b00001, S1`) */
    TPC_OPF_LISTED = 1u << 4,
    /* a jump target: a register, or a label or number in the bundle's IMM,
     * relative to the bundle for a row with TPC_F_PCREL */
    TPC_OPF_TARGET = 1u << 5,
    /* a number held in the bundle's 32-bit IMM alone (mov_g's byte mask) */
    TPC_OPF_BIMM = 1u << 6,
    /* a V source that reads V(n), V(n+1) when the row's pair rule says so
     * (TPC_F_CVT_PAIR): written Vn (any n) or Dn, printed Dn for an even n */
    TPC_OPF_SPAIR = 1u << 7,
    /* a number that is the instruction's data type (TpcInsn.type), written
     * as the type suffix: the load slot's mov keeps it in SRC_B[7:4] */
    TPC_OPF_TYPE = 1u << 8,
    /* not written: the field repeats the DEST field (the vendor's encoder
     * writes `mov S4, PC`'s destination in SRC_A too) */
    TPC_OPF_COPY = 1u << 9,
    /* a tensor: a number 0..max in the field, or (sreg != 0) the register
     * S<sreg> when SWITCHES bit swbit is set, the field then holding sregval
     * (`ld_tnsr V1, S27, I2`: LD SRC_B 0; `st_tnsr S28, ...`: ST SRC_B 28) */
    TPC_OPF_TNSR = 1u << 10,
    /* an optional trailing operand, the register S<sreg>, written when
     * SWITCHES bit swbit is set (ld_tnsr's S30 = partial; st_tnsr's S29 =
     * rmw_sel, S31 = partial) */
    TPC_OPF_SWREG = 1u << 11,
    /* TPC_OPF_SWREG: the switch word alone (no register) is dropped with a
     * warning, as the vendor's assembler does for `ld_tnsr partial` */
    TPC_OPF_SWREG_ONLY = 1u << 12,
    /* TPC_OPF_SWREG: not in a _low/_high row (Gaudi has no partial half
     * access): ILLEGAL_INSTRUCTION */
    TPC_OPF_FULL_ONLY = 1u << 13,
    /* TPC_OPF_SWREG: not with a VP value in SRC_C (no read-modify-write of
     * a predicate): ILLEGAL_INSTRUCTION */
    TPC_OPF_NOT_VP = 1u << 14,
};

/* When a variant of a form applies (TpcLayout.cond): the slot, and what
 * OPERANDS_TYPE must be; the assembler also takes b or i32 as the default
 * type of a variant that requires it. */
enum {
    TPC_VC_SPU = 1u << 0,
    TPC_VC_VPU = 1u << 1,
    TPC_VC_B = 1u << 2,     /* type b (predicate operands) */
    TPC_VC_NOT_B = 1u << 3, /* any allowed type but b */
    TPC_VC_I32 = 1u << 4,   /* type i32 (the int5 forms) */
    TPC_VC_LD = 1u << 5,
    TPC_VC_ST = 1u << 6,
    TPC_VC_SW0 = 1u << 7,     /* SWITCHES bit 0 set (mov_dg.all) */
    TPC_VC_NOT_SW0 = 1u << 8, /* SWITCHES bit 0 clear */
    TPC_VC_NOT_VPU = 1u << 9, /* any slot but the VPU (mov Sd, PC: SPU, load slot) */
};

enum {
    TPC_LF_SW_B = 1u << 0, /* SRC_B is a switch word (kept as TPC_OP_RAW) */
    TPC_LF_SW_D = 1u << 1, /* SRC_D / LD SRC_B is a switch word */
    TPC_LF_SW_C = 1u << 2, /* SRC_C is a switch word */
    TPC_LF_SW_A = 1u << 3, /* SRC_A is a switch word (aso) */
    /* the SRC_A address may be followed by the compiler's zero offset
     * (`ld_l_v %V0, %S1, 0x0`, two-part addresses of later generations) */
    TPC_LF_ADDR_OFF = 1u << 4,
    /* OPERANDS_TYPE is i32, as the vendor writes it, with no suffix (SPU set_indx) */
    TPC_LF_TYPE_I32 = 1u << 5,
    /* the mnemonic alone: no operand, type, switch or predicate is read or
     * printed (the decoder ignores the slot's other fields, as the vendor's
     * disassembler does for nop) */
    TPC_LF_BARE = 1u << 6,
    TPC_LF_DEFINED = 1u << 7, /* set for every row of insn-forms.def */
    /* the store slot's SRC_C operand is the destination (an IRF/ADRF
     * result), not a value read */
    TPC_LF_C_DEST = 1u << 8,
    /* OPERANDS_TYPE of the variant (its type T in bits 19:16, TPC_LF_T):
     * NONE: 0, no suffix (the decoder refuses another, the assembler a
     * written one); DEFAULT: T when none is written, the suffix printed
     * only when the type is another; FIXED: always T, no suffix (the
     * vendor's assembler writes T whatever suffix is written) */
    TPC_LF_T_NONE = 1u << 9,
    TPC_LF_T_DEFAULT = 1u << 10,
    TPC_LF_T_FIXED = 1u << 11,
    /* chosen by the kinds of its sources as well as of its destination
     * (the decoder and the assembler try the next variant when a source
     * does not fit) */
    TPC_LF_BY_SRC = 1u << 12,
    /* its TPC_VC_SW0 bit is implied by an operand (mov Sd, PC): the
     * assembler sets it without the switch being written */
    TPC_LF_SETS_SW0 = 1u << 13,
};
#define TPC_LF_T(t)        ((uint32_t)(t) << 16)
#define TPC_LF_T_DEF(t)    (TPC_LF_T_DEFAULT | TPC_LF_T(TPC_T_##t))
#define TPC_LF_T_FIX(t)    (TPC_LF_T_FIXED | TPC_LF_T(TPC_T_##t))
#define tpc_layout_type(l) (((l)->flags >> 16) & 15u)

typedef struct TpcLayout {
    uint32_t flags; /* TPC_LF_* */
    uint8_t nops;
    TpcOpSpec op[5];
    /* variants (TPC_VARIANT rows): when this one applies */
    uint16_t cond;  /* TPC_VC_* (0: always) */
    uint8_t need;   /* TPC_F_* the row must have */
    uint8_t swmask; /* SWITCHES bits its switch table may use (0: all) */
} TpcLayout;

/* Kind-set shorthands of the layout rows. */
#define TPC_K(x)     (1u << TPC_OP_##x)
#define TPC_K_IMM    (TPC_K(IMM) | TPC_K(SIMM))
#define TPC_K_SSRC   (TPC_K(S) | TPC_K(SLFSR) | TPC_K_IMM) /* scalar value source */
#define TPC_K_VSRC   (TPC_K(V) | TPC_K(VSPECIAL))          /* vector register source */
#define TPC_K_VSSRC  (TPC_K_VSRC | TPC_K_SSRC)              /* vector or broadcast scalar */
#define TPC_OPD(f, kinds)                                                                          \
    {                                                                                              \
        TPC_FIELD_##f, 0, (uint16_t)(kinds), 0, 0, 0, 0, 0, 0, 0                                   \
    }
#define TPC_OPD2(f, kinds)                                                                         \
    {                                                                                              \
        TPC_FIELD_##f, 2, (uint16_t)(kinds), 0, 0, 0, 0, 0, 0, 0                                   \
    }
/* a number in bits shift..shift+width-1 of field f, printed before the
 * operands; max: the largest valid value (0: any that fits) */
#define TPC_OPDN(f, shift, width, max)                                                             \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), shift, width, TPC_OPF_PREFIX, max, 0, 0, 0                   \
    }
/* a number operand in bits shift..shift+width-1 of field f (width 0: all) */
#define TPC_OPDR(f, shift, width)                                                                  \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), shift, width, 0, 0, 0, 0, 0                                  \
    }
/* TPC_OPDR whose value the encoder also writes to the bundle's IMM */
#define TPC_OPDRI(f, shift, width)                                                                 \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), shift, width, TPC_OPF_IMM, 0, 0, 0, 0                        \
    }
/* the int5 dim mask in SWITCHES[6:2] */
#define TPC_OPD_DIMMASK                                                                            \
    {                                                                                              \
        TPC_FIELD_SW, 0, TPC_K(RAW), 2, 5, TPC_OPF_DIMMASK, 0, 0, 0, 0                             \
    }
/* a dim mask in bits 6:2 of field f, written as an operand */
#define TPC_OPD_DIMMASK_AT(f)                                                                      \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), 2, 5, TPC_OPF_DIMMASK | TPC_OPF_LISTED, 0, 0, 0, 0           \
    }
/* a V destination, a pair for the types and switches tpc_vpu_pair_dest names */
#define TPC_OPD_BIMM                                                                               \
    {                                                                                              \
        TPC_FIELD_SW, 0, TPC_K(RAW), 0, 0, TPC_OPF_BIMM, 0, 0, 0, 0                                \
    }
#define TPC_OPD_TARGET(f, kinds)                                                                   \
    {                                                                                              \
        TPC_FIELD_##f, 0, (uint16_t)(kinds), 0, 0, TPC_OPF_TARGET, 0, 0, 0, 0                      \
    }
#define TPC_OPD_VPAIR(f, kinds)                                                                    \
    {                                                                                              \
        TPC_FIELD_##f, 0, (uint16_t)(kinds), 0, 0, TPC_OPF_VPAIR, 0, 0, 0, 0                       \
    }
/* a dim mask in bits 6:2 of field f, written as a word before the operands */
#define TPC_OPD_DIMMASK_IN(f)                                                                      \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), 2, 5, TPC_OPF_DIMMASK, 0, 0, 0, 0                            \
    }
/* the data type in bits shift..shift+width-1 of field f (the type suffix) */
#define TPC_OPD_TYPE(f, shift, width)                                                              \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), shift, width, TPC_OPF_TYPE, 0, 0, 0, 0                       \
    }
/* field f repeats DEST (not written) */
#define TPC_OPD_COPY(f)                                                                            \
    {                                                                                              \
        TPC_FIELD_##f, 0, 0, 0, 0, TPC_OPF_COPY, 0, 0, 0, 0                                        \
    }
#define TPC_OPD_SPAIR(f, kinds)                                                                    \
    {                                                                                              \
        TPC_FIELD_##f, 0, (uint16_t)(kinds), 0, 0, TPC_OPF_SPAIR, 0, 0, 0, 0                       \
    }

/* a tensor number 0..15 in bits 3:0 of field f, or S<sreg> (SWITCHES bit
 * swbit, the field then holding val; sreg 0: a number only) */
#define TPC_OPD_TNSR(f, sreg, swbit, val)                                                          \
    {                                                                                              \
        TPC_FIELD_##f, 0, TPC_K(RAW), 0, 4, TPC_OPF_TNSR, 15, sreg, swbit, val                     \
    }
/* the optional trailing register S<sreg> of SWITCHES bit swbit; more:
 * TPC_OPF_SWREG_ONLY, TPC_OPF_FULL_ONLY, TPC_OPF_NOT_VP */
#define TPC_OPD_SWREG(sreg, swbit, more)                                                           \
    {                                                                                              \
        TPC_FIELD_SW, 0, TPC_K(RAW), swbit, 1, TPC_OPF_SWREG | (more), 0, sreg, swbit, 0           \
    }

/* Layout of a form, or NULL for a hand-coded form. */
struct TpcInsn;
/* Value of switch `sw` in a decoded slot instruction. */
uint32_t tpc_sw_value(const struct TpcInsn *in, const TpcSwDef *sw);
const TpcLayout *tpc_form_layout(unsigned form);
/* Variant i of a form (a form without TPC_VARIANT rows has one, its
 * TPC_LAYOUT row), or NULL past the last. */
const TpcLayout *tpc_form_variant(unsigned form, unsigned i);
/* Does variant l apply to row d with OPERANDS_TYPE type and SWITCHES sw
 * (type, sw < 0: not known yet, the assembler before it has read the
 * operands; the ISA pages)? */
bool tpc_variant_applies(const TpcLayout *l, const struct TpcInsnDesc *d, int type, int sw);

/* Bundle position of a slot's encoding field (tpc.md §4.1): lo bit and
 * width; width 0 when the slot has no such field. */
typedef struct TpcFieldPos {
    uint8_t lo, width;
} TpcFieldPos;
enum { TPC_FPOS_OPC = TPC_FIELD_COUNT, TPC_FPOS_COUNT };
/* index: a TPC_FIELD_* code (DEST..SRC_D, TYPE, SW), or TPC_FPOS_OPC */
extern const TpcFieldPos tpc_field_pos[4][TPC_FPOS_COUNT];

/* Named opcodes, generated from the rows: TPC_OPC_<SLOT>_<mnemonic>. */
enum {
#define TPC_LD(opc, name, f, t, s, fl)   TPC_OPC_LD_##name = opc,
#define TPC_LD_N(opc, name, f, t, s, fl) TPC_OPC_LD_##name = opc,
#define TPC_LD_U(opc, name, f, t, s, fl) TPC_OPC_LD_##name = opc,
#include "target/tpc/insn-ld.def"
#define TPC_SPU(opc, name, f, t, s, fl)   TPC_OPC_SPU_##name = opc,
#define TPC_SPU_N(opc, name, f, t, s, fl) TPC_OPC_SPU_##name = opc,
#define TPC_SPU_U(opc, name, f, t, s, fl) TPC_OPC_SPU_##name = opc,
#include "target/tpc/insn-spu.def"
#define TPC_VPU(opc, name, f, t, s, fl)   TPC_OPC_VPU_##name = opc,
#define TPC_VPU_N(opc, name, f, t, s, fl) TPC_OPC_VPU_##name = opc,
#define TPC_VPU_U(opc, name, f, t, s, fl) TPC_OPC_VPU_##name = opc,
#include "target/tpc/insn-vpu.def"
#define TPC_ST(opc, name, f, t, s, fl)   TPC_OPC_ST_##name = opc,
#define TPC_ST_N(opc, name, f, t, s, fl) TPC_OPC_ST_##name = opc,
#define TPC_ST_U(opc, name, f, t, s, fl) TPC_OPC_ST_##name = opc,
#include "target/tpc/insn-st.def"
};

/* Rules of the description that several consumers need (insn-table.c):
 * each is written once. */
/* Does a VPU MAC/MUL of type t with switches sw write a register pair
 * (tpc.md §1.2: bf16 acc_fp32, i16/u16, i32/u32 MUL without double_and_round32)? */
bool tpc_vpu_pair_dest(unsigned opc, unsigned t, unsigned sw);
/* VPU CONVERT from type st with SRC_B switch word b: does it write a
 * destination pair (bf16 -> f32) or read a source pair (f32 -> bf16 all_lanes)? */
bool tpc_convert_pair_dest(unsigned st, unsigned b);
bool tpc_convert_pair_src(unsigned st, unsigned b);
/* Is operand `flags` (TPC_OPF_VPAIR / SPAIR) of row d a register pair for
 * OPERANDS_TYPE t, SWITCHES sw and SRC_B switch word b?  The row's pair rule:
 * TPC_F_CVT_PAIR (convert), else tpc_vpu_pair_dest (MAC/MUL). */
bool tpc_opd_pair(const TpcInsnDesc *d, unsigned flags, unsigned t, unsigned sw, unsigned b);
/* May a TPC_OPF_SPAIR source of row d be written as a pair Dn?  For the
 * types whose pair rule reads one, whatever the lanes (the vendor's
 * assembler takes `convert.f32 V0, D2, BF16`, a single lane). */
bool tpc_opd_src_pair_spelling(const TpcInsnDesc *d, unsigned t, unsigned b);
/* Every set switch bit of a decoded slot that a typed switch describes is
 * valid for the slot's OPERANDS_TYPE (TpcSwDef.types; a bit two switches
 * share is valid when either allows the type: SPU mul bit 2 is upper32 for
 * i32/u32 and acc_fp32 for bf16). */
bool tpc_sw_types_ok(const struct TpcInsn *in);
/* 0 for a full-register load/store row, 1 for its _low, 2 for its _high form. */
static inline unsigned tpc_insn_half(const struct TpcInsnDesc *d)
{
    return d->flags & TPC_F_LOW ? 1u : d->flags & TPC_F_HIGH ? 2u : 0u;
}

/* Registers a decoded slot instruction reads (the timing model's consumer
 * operands, docs/timing.rst), from its decoded operands: every register
 * operand of SRC_A..SRC_D except the store slot's SRC_C destination
 * (gen_addr, prmt_indx, set_indx), the predicate when not SP0/VP0, and the
 * destination read as an accumulator (MAC, UDIV_4STEP).  field is a
 * TPC_FIELD_* code (TPC_FIELD_PRED for the predicate, TPC_FIELD_DEST for
 * the accumulator); count 2 for a register pair.  Returns how many (<= 6). */
typedef struct TpcRegRead {
    uint8_t field;
    uint8_t kind; /* TPC_OP_S, SP, V, VP, I or AD */
    uint8_t num;
    uint8_t count;
} TpcRegRead;
enum { TPC_MAX_READS = 6 };
struct TpcInsn;
unsigned tpc_insn_reads(const struct TpcInsn *in, unsigned slot, TpcRegRead out[TPC_MAX_READS]);

/* Row of the slot's table, or NULL when the opcode is not defined there. */
const TpcInsnDesc *tpc_insn_desc(unsigned slot, unsigned opc);

/* Decoded operand kinds (tpc.md §4.2). */
typedef enum TpcOpKind {
    TPC_OP_NONE = 0, /* field not used by the form */
    TPC_OP_RAW,      /* field holds switches / a tensor id / a count: see raw */
    TPC_OP_V,        /* V0..V39 (first register of a pair/quad) */
    TPC_OP_S,        /* S0..S35 */
    TPC_OP_SP,       /* SP0..SP15 */
    TPC_OP_VP,       /* VP0..VP15 */
    TPC_OP_I,        /* I0..I31 */
    TPC_OP_AD,       /* AD0..AD7 */
    TPC_OP_IMM,      /* long immediate: the bundle's IMM */
    TPC_OP_SIMM,     /* short immediate 111..126 (value in num, 111 -> 15) */
    TPC_OP_VSPECIAL, /* num: TPC_VS_* (vector read-only sources) */
    TPC_OP_SLFSR,    /* num: 0 S_LFSR, 1 S_LFSR_NO_CHANGE */
    TPC_OP_HWREG,    /* hardware register of a MOV (SWITCHES bit 0, SRC_B): num 0 = PC */
} TpcOpKind;

enum {
    TPC_VS_LFSR = 0,
    TPC_VS_LFSR_NO_CHANGE,
    TPC_VS_LANE_ID_32,
    TPC_VS_LANE_ID_16,
    TPC_VS_LANE_ID_8
};

/* num is always in range for its kind (V 0..39, S 0..35, I 0..31, ...): the
 * decoder maps only encodable register fields to register kinds. */
typedef struct TpcOperand {
    uint8_t kind; /* TpcOpKind */
    uint8_t num;  /* register number / special index / short-immediate value */
    uint16_t raw; /* the field as encoded */
} TpcOperand;

/* One decoded slot instruction. */
typedef struct TpcInsn {
    const TpcInsnDesc *desc; /* never NULL after a successful decode */
    uint8_t opc;
    uint8_t type;   /* OPERANDS_TYPE (SPU/VPU); LD MOV to S/V from S/imm: B[7:4]; else 0 */
    uint8_t sw;     /* SWITCHES field of the slot */
    uint8_t var;    /* the variant of a table-described form that decoded it */
    uint8_t pred;   /* predicate register number (SPn or VPn) */
    bool pred_vp;   /* predicate is a VPRF (VPU/LD/ST) */
    bool polarity;  /* 1: executes when the predicate is 0 */
    TpcOperand dst; /* DEST */
    TpcOperand a;   /* SRC_A */
    TpcOperand b;   /* SRC_B (LD: shared 9-bit field 81:73) */
    TpcOperand c;   /* SRC_C (VPU, ST: shared field 72:65) */
    TpcOperand d;   /* SRC_D (VPU: shared field 81:73) */
} TpcInsn;

/* Decoded LOOP bundle (tpc.md §4.4). */
typedef struct TpcLoop {
    uint8_t start_reg, boundary_reg, step_reg; /* S numbers (raw field when *_imm) */
    bool start_imm, boundary_imm, step_imm;    /* *_SEL = 1: the immediate is used */
    uint32_t start, boundary, step;            /* the immediates */
    bool once;                                 /* REPEAT_AT_MOST_ONCE */
    uint8_t cmp;                               /* TPC_CMP_* */
    uint8_t pred;                              /* SPn */
    bool polarity;
    uint16_t end_offset; /* END_PC_OFFSET: bytes from LOOP to the last body bundle */
} TpcLoop;

enum { TPC_CMP_GT = 0, TPC_CMP_GE, TPC_CMP_LT, TPC_CMP_LE, TPC_CMP_EQ, TPC_CMP_NE };

/* LOOP's start, boundary and step, in assembly order (tpc.md §4.4): an S
 * register in bits reg_lo.. (reg_w wide) or, with the select bit sel set,
 * the 32-bit immediate at imm_lo (start's is the bundle's IMM); field is the
 * FAULT_INFO field of a bad register; the offsets are TpcLoop's members.
 * The decoder, the printer and the assembler walk these three rows (LOOP
 * is no row of insn-forms.def: docs/tpc-isa.rst says why). */
typedef struct TpcLoopOpd {
    const char *name;
    uint8_t reg_lo, reg_w, sel, imm_lo, field;
    uint8_t reg_off, sel_off, val_off; /* offsetof(TpcLoop, ...) */
} TpcLoopOpd;
extern const TpcLoopOpd tpc_loop_opd[3];

/* Operand conventions: a field the form does not use has kind TPC_OP_NONE;
 * switch-like fields (tensor ids, masks, CONVERT/PACK/MOV_DG words, MOV
 * type/section in B) are TPC_OP_RAW with the field in `raw`.  Pair/quad
 * destinations (tpc.md §1.2) are TPC_OP_V with the first (even) index.
 * When is_loop, slot[SPU].desc is the LOOP row and the other descs are NULL. */
typedef struct TpcBundle {
    bool is_loop;    /* SPU opcode TPC_OPC_LOOP: only `loop` and `imm` are meaningful */
    bool halt;       /* HALT in the SPU or VPU slot */
    uint32_t imm;    /* shared 32-bit immediate, bits 182:151 */
    TpcInsn slot[4]; /* indexed by TpcSlot: LD, SPU, VPU, ST */
    TpcLoop loop;
} TpcBundle;

/* Decode one bundle following tpc.md §4.6.  Returns false with *f set
 * (code, FAULT_INFO; addr 0) on ILLEGAL_OPCODE, ILLEGAL_OPERAND,
 * ILLEGAL_INSTRUCTION or UNIMPLEMENTED; the first faulting slot in order
 * LD, SPU, VPU, ST is reported.  No allocation, no logging. */
bool tpc_decode_bundle(const uint8_t b[TPC_BUNDLE_BYTES], TpcBundle *out, NxFault *f);

/* Same, but keeps going after a slot faults: slot_fault[i] gets each slot's
 * fault (code 0 = fine).  UNIMPLEMENTED slots are fully decoded.  Returns
 * false if any slot (or the LOOP) faulted; *f is the first fault.  Used by
 * the disassembler. */
bool tpc_decode_bundle_all(const uint8_t b[TPC_BUNDLE_BYTES], TpcBundle *out, NxFault *f,
                           NxFault slot_fault[4]);

/* Disassemble one bundle (tpc.md §8 syntax, no newline; jump/loop targets
 * as numbers) into buf, NUL-terminated and truncated to size; returns the
 * full length.  For logging (-d in_asm); needs no executor. */
size_t tpc_disas_bundle(char *buf, size_t size, const uint8_t b[TPC_BUNDLE_BYTES], uint32_t pc);

/* The tensor a decoded slot instruction names through its form's
 * TPC_OPF_TNSR operand (gen_addr, ld_tnsr*, st_tnsr*): its id 0..15, -1 when
 * it takes it from S27/S28, -2 when the form has none (tensor-use.c). */
int tpc_insn_tensor(const struct TpcInsn *in);

/* The highest tensor id that an instruction of the kernel code `text` names
 * as an immediate (GEN_ADDR, LD_TNSR*, ST_TNSR* without the register switch),
 * -1 if none; then *pc is the offset of its first bundle and *mnemonic the
 * instruction (tensor-use.c). */
int tpc_text_max_tensor(const uint8_t *text, size_t len, uint32_t *pc, const char **mnemonic);

/* Bit-field helpers over a 32-byte little-endian bundle. */
static inline uint32_t tpc_bits(const uint8_t *b, unsigned lo, unsigned width)
{
    uint64_t v = 0;
    unsigned first = lo / 8, last = (lo + width - 1) / 8;
    for (unsigned i = last + 1; i-- > first;)
        v = v << 8 | b[i];
    v >>= lo % 8;
    return (uint32_t)(v & ((width >= 32) ? 0xffffffffu : ((1u << width) - 1)));
}

static inline void tpc_set_bits(uint8_t *b, unsigned lo, unsigned width, uint32_t val)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = lo + i;
        uint8_t m = (uint8_t)(1u << (bit % 8));
        if ((val >> i) & 1)
            b[bit / 8] |= m;
        else
            b[bit / 8] &= (uint8_t)~m;
    }
}

/* Field positions (tpc.md §4.1). */
enum {
    TPC_B_SPU_OPC = 0,
    TPC_B_SPU_SRC_A = 6,
    TPC_B_SPU_SRC_B = 13,
    TPC_B_SPU_DEST = 20,
    TPC_B_SPU_TYPE = 27,
    TPC_B_SPU_POL = 31,
    TPC_B_SPU_PRED = 32,
    TPC_B_SPU_SW = 36,
    TPC_B_VPU_OPC = 43,
    TPC_B_VPU_SRC_A = 49,
    TPC_B_VPU_SRC_B = 57,
    TPC_B_VPU_SRC_C = 65, /* = ST SRC_C */
    TPC_B_VPU_SRC_D = 73, /* = LD SRC_B, 9 bits */
    TPC_B_VPU_DEST = 82,
    TPC_B_VPU_SW = 90,
    TPC_B_VPU_TYPE = 93,
    TPC_B_VPU_POL = 97,
    TPC_B_VPU_PRED = 98, /* 4 bits + bit 102 is-VPRF */
    TPC_B_LD_SRC_A = 103,
    TPC_B_LD_DEST = 111,
    TPC_B_LD_OPC = 119,
    TPC_B_ST_SRC_A = 124,
    TPC_B_ST_SRC_B = 132,
    TPC_B_ST_OPC = 140,
    TPC_B_LDST_POL = 145,
    TPC_B_LDST_PRED = 146, /* 4 bits + bit 150 is-VPRF */
    TPC_B_IMM = 151,
    TPC_B_LD_SW = 183,
    TPC_B_ST_SW = 187,
    /* LOOP */
    TPC_B_LOOP_START = 6,
    TPC_B_LOOP_BOUNDARY = 13,
    TPC_B_LOOP_STEP = 20,
    TPC_B_LOOP_START_SEL = 26,
    TPC_B_LOOP_BOUNDARY_SEL = 27,
    TPC_B_LOOP_STEP_SEL = 28,
    TPC_B_LOOP_ONCE = 29,
    TPC_B_LOOP_BOUNDARY_IMM = 36,
    TPC_B_LOOP_STEP_IMM = 68,
    TPC_B_LOOP_END = 100,
    TPC_B_LOOP_CMP = 116,
};

/* Opcodes the bundle-level code names (from the rows: no number here) */
enum {
    TPC_OPC_SPU_NOP = TPC_OPC_SPU_nop,
    TPC_OPC_VPU_NOP = TPC_OPC_VPU_nop,
    TPC_OPC_LD_NOP = TPC_OPC_LD_nop,
    TPC_OPC_ST_NOP = TPC_OPC_ST_nop,
    TPC_OPC_HALT = TPC_OPC_SPU_halt,
    TPC_OPC_LOOP = TPC_OPC_SPU_loop,
};
/* the bundle's halt test reads both slots' opcode as TPC_OPC_HALT */
_Static_assert(TPC_OPC_SPU_halt == TPC_OPC_VPU_halt, "SPU and VPU halt share an opcode");

#endif
