/*
 * The field table of fields.def as data, for the generated ISA page
 * (tools/nxemu-isa-doc) and the table's tests; code reads fields through
 * the compile-time accessors of fields.h instead.
 */
#include <stdbool.h>

#include "fields.h"

const SeqFieldDesc seq_field_table[] = {
#define SEQ_FIELD(fmt, name, off, size, count, enc, doc)                                           \
    {SEQ_FMT_##fmt, #name, off, size, count, enc, 0, 8 * (size), doc},
#define SEQ_BITS(fmt, name, off, lsb, nbits, doc)                                                  \
    {SEQ_FMT_##fmt, #name, off, 1, 1, SEQ_ENC_U, lsb, nbits, doc},
#include "fields.def"
};

const unsigned seq_field_count = sizeof(seq_field_table) / sizeof(seq_field_table[0]);

const SeqFormatDesc seq_format_table[SEQ_FMT_COUNT] = {
#define SEQ_FMT(fmt, title, relative) {#fmt, title, relative},
#include "fields.def"
};
