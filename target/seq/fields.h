/*
 * Field access for the sequencer's 64-byte records, generated from
 * target/seq/fields.def (the one place field offsets live).
 *
 * For every row SEQ_FIELD(FMT, NAME, off, size, count, enc) the enum below
 * defines SEQ_F_<FMT>_<NAME> = off, and _W (bytes per value), _N (count),
 * _E (encoding), _LSB and _NB (bit position and width; a whole-byte field
 * has LSB 0 and NB = 8 * size).  The accessors are macros over those
 * constants, so a read folds to one load and a shift at compile time:
 *
 *   seq_field_get(rec, SEQ_F_DMA_SRC_ESIZE)     -> 1..65536 (0 means 65536)
 *   seq_field_get_at(rec, SEQ_F_MV_DST, k)      -> element k of an array
 *   seq_field_put(rec, SEQ_F_ALU_OP, SEQ_ALU_ADD)
 *   seq_field_ptr(rec, SEQ_F_WR_ADDR)           -> the ADDR8 operand's bytes
 *
 * get applies the encoding (signed fields are sign-extended to 64 bits,
 * Z64K maps 0 to 65536); put stores the low bits of the value (so 65536 in
 * a Z64K field stores 0) and leaves the rest of the byte of a SEQ_BITS
 * field alone.
 */
#ifndef TARGET_SEQ_FIELDS_H
#define TARGET_SEQ_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum SeqFieldEnc {
    SEQ_ENC_U = 0,     /* unsigned little-endian */
    SEQ_ENC_S = 1,     /* signed two's complement */
    SEQ_ENC_Z64K = 2,  /* unsigned, 0 means 65536 (DMA element sizes) */
    SEQ_ENC_ADDR8 = 3, /* an ADDR8 operand (§5.1), fields in format ADDR8 */
};

/* The largest value of a Z64K field: stored as 0. */
#define SEQ_Z64K_MAX 65536u

enum SeqFieldConst {
#define SEQ_FIELD(fmt, name, off, size, count, enc, doc)                                           \
    SEQ_F_##fmt##_##name = (off), SEQ_F_##fmt##_##name##_W = (size),                               \
    SEQ_F_##fmt##_##name##_N = (count), SEQ_F_##fmt##_##name##_E = (enc),                          \
    SEQ_F_##fmt##_##name##_LSB = 0, SEQ_F_##fmt##_##name##_NB = 8 * (size),
#define SEQ_BITS(fmt, name, off, lsb, nbits, doc)                                                  \
    SEQ_F_##fmt##_##name = (off), SEQ_F_##fmt##_##name##_W = 1, SEQ_F_##fmt##_##name##_N = 1,      \
    SEQ_F_##fmt##_##name##_E = SEQ_ENC_U, SEQ_F_##fmt##_##name##_LSB = (lsb),                      \
    SEQ_F_##fmt##_##name##_NB = (nbits),
#include "fields.def"
};

/* Record formats, in fields.def order: SEQ_FMT_HDR, ... */
enum SeqFormatId {
#define SEQ_FMT(fmt, title, relative) SEQ_FMT_##fmt,
#include "fields.def"
    SEQ_FMT_COUNT
};

/* n is a constant at every accessor call, so this folds to one load. */
static inline uint64_t seq_le_get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    switch (n) {
    case 1:
        return p[0];
    case 2:
        return (uint64_t)(p[0] | p[1] << 8);
    case 4:
        return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    default:
        for (unsigned i = 0; i < n && i < 8; i++) {
            v |= (uint64_t)p[i] << (8 * i);
        }
        return v;
    }
}

static inline void seq_le_put(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n && i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline uint64_t seq_field_decode_(uint64_t v, unsigned w, unsigned enc, unsigned lsb,
                                         unsigned nb)
{
    if (nb < 8 * w) {
        v = (v >> lsb) & ((1ULL << nb) - 1);
    }
    if (enc == SEQ_ENC_S && w < 8 && (v >> (8 * w - 1)) & 1) {
        v |= ~0ULL << (8 * w);
    } else if (enc == SEQ_ENC_Z64K && v == 0) {
        v = SEQ_Z64K_MAX;
    }
    return v;
}

static inline void seq_field_put_(uint8_t *p, unsigned w, unsigned lsb, unsigned nb, uint64_t v)
{
    if (nb < 8 * w) {
        uint64_t m = ((1ULL << nb) - 1) << lsb;
        v = (seq_le_get(p, w) & ~m) | ((v << lsb) & m);
    }
    seq_le_put(p, w, v);
}

#define seq_field_get(rec, F)                                                                      \
    seq_field_decode_(seq_le_get((const uint8_t *)(rec) + (F), F##_W), F##_W, F##_E, F##_LSB,      \
                      F##_NB)
#define seq_field_get_at(rec, F, k)                                                                \
    seq_field_decode_(seq_le_get((const uint8_t *)(rec) + (F) + (size_t)(k)*F##_W, F##_W), F##_W,  \
                      F##_E, F##_LSB, F##_NB)
#define seq_field_put(rec, F, v) seq_field_put_((rec) + (F), F##_W, F##_LSB, F##_NB, (uint64_t)(v))
#define seq_field_put_at(rec, F, k, v)                                                             \
    seq_field_put_((rec) + (F) + (size_t)(k)*F##_W, F##_W, F##_LSB, F##_NB, (uint64_t)(v))
/* First byte of a field (an ADDR8 operand, an array to copy). */
#define seq_field_ptr(rec, F) ((rec) + (F))
/* Total bytes of a field (size * count). */
#define seq_field_bytes(F) ((unsigned)(F##_W * F##_N))

/* The table itself, for the ISA page and the table's own tests. */
typedef struct SeqFieldDesc {
    uint8_t fmt; /* SeqFormatId */
    const char *name;
    uint8_t off, size, count, enc, lsb, nbits;
    const char *doc;
} SeqFieldDesc;

typedef struct SeqFormatDesc {
    const char *name; /* "DMA" */
    const char *title;
    bool relative; /* offsets from an operand; fields are alternatives */
} SeqFormatDesc;

extern const SeqFieldDesc seq_field_table[];
extern const unsigned seq_field_count;
extern const SeqFormatDesc seq_format_table[SEQ_FMT_COUNT];

#endif
