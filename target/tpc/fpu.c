/*
 * Number formats of the TPC (tpc.md §5.0.4, §5.3.1, machine.md §12.13):
 * f32/bf16 helpers; CONVERT's element is lane.h's tpc_lane_convert (exact
 * integer arithmetic, each result rounded once), the same function the
 * VPU's whole-register loops run (vlane-impl.h).
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"

float tpc_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint32_t tpc_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

uint32_t tpc_f32_canon(float f)
{
    return isnan(f) ? 0x7FC00000u : tpc_f32_bits(f);
}

float tpc_bf16_to_f32(uint16_t b)
{
    return tpc_f32((uint32_t)b << 16);
}

uint16_t tpc_f32_to_bf16_rne(float f)
{
    return (uint16_t)tpc_lane_bf16_round(f);
}

double tpc_elem_to_double(uint32_t raw, unsigned t, bool *is_nan)
{
    float f;
    *is_nan = false;
    switch (t) {
    case TPC_T_F32:
        f = tpc_f32(raw);
        *is_nan = isnan(f);
        return f;
    case TPC_T_BF16:
        f = tpc_bf16_to_f32((uint16_t)raw);
        *is_nan = isnan(f);
        return f;
    case TPC_T_I32:
        return (int32_t)raw;
    case TPC_T_U32:
        return raw;
    case TPC_T_I16:
        return (int16_t)raw;
    case TPC_T_U16:
        return (uint16_t)raw;
    case TPC_T_I8:
        return (int8_t)raw;
    default:
        return (uint8_t)raw;
    }
}

_Static_assert(TPC_RM_RZ == TPC_LANE_RM_RZ && TPC_RM_RU == TPC_LANE_RM_RU &&
                   TPC_RM_RD == TPC_LANE_RM_RD && TPC_RM_SR == TPC_LANE_RM_SR &&
                   TPC_RM_RHAZ == TPC_LANE_RM_RHAZ,
               "lane.h's rounding-mode codes are cpu.h's");

uint32_t tpc_convert(uint32_t raw, unsigned st, unsigned dt, unsigned rm, uint32_t sr_state)
{
    return tpc_lane_convert(raw, st, dt, rm, sr_state);
}

unsigned tpc_resolve_rm(TpcCpu *c, unsigned rm)
{
    if (rm != TPC_RM_DEFAULT)
        return rm;
    unsigned csr = c->port.kv[TPC_KV_ROUND_CSR / 4] & 7u;
    return (csr == 5 || csr == 7) ? TPC_RM_RHNE : csr;
}

uint32_t tpc_int_result(int64_t v, unsigned t, bool sat)
{
    return tpc_lane_int_result(v, t, sat);
}
