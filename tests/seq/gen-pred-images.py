#!/usr/bin/env python3
"""Generate tests/seq/pred-*.s: one image per validity predicate of
sequencer.md §10.  Each image is a valid base record of the opcode (byte
layouts of sequencer.md §8) with exactly one field changed to break the named
predicate, written as a raw `.rec`, followed by a HALT.  Executing it must
fault with INVALID_INSTRUCTION and FAULT_INFO = the predicate id (exit 132);
the pseudo-only predicates are load errors instead (exit 125).

Run from the source tree when the list changes:  python3 gen-pred-images.py
The generated files are checked in; meson only assembles and runs them.
"""
import os
import struct


def rec(opc):
    r = bytearray(64)
    r[0] = opc
    r[1] = 0x10
    return r


def put(r, off, val, n):
    r[off:off + n] = val.to_bytes(n, "little")


def nop():
    return rec(0xA4)


def write():
    r = rec(0xA5)
    r[12], r[13] = 1, 0x9
    put(r, 16, 0x2805000004, 8)  # CONSOLE: harmless if it ever ran
    put(r, 24, 0x21, 4)
    return r


def m2d(opc):
    r = rec(opc)
    r[12], r[14], r[15] = 0x9, 1, 1
    put(r, 16, 0x02000000, 8)
    r[32] = 1
    return r


def move():
    r = rec(0xA7)
    r[12], r[13], r[14], r[24] = 1, 0x9, 1, 1
    return r


def alu():
    r = rec(0xA8)
    r[12], r[13], r[14], r[16], r[20] = 0x04, 0x9, 1, 1, 2
    put(r, 24, 5, 8)
    return r


def branch():
    r = rec(0xA9)
    r[12], r[13], r[14], r[32] = 3, 0x9, 3, 1
    put(r, 48, 64, 8)
    return r


def evsem():
    r = rec(0xA0)
    r[4], r[5] = 0x05, 1
    put(r, 8, 1, 4)
    return r


def semclr():
    r = rec(0xB0)
    r[12], r[13], r[14] = 1, 3, 5
    return r


def drain():
    r = rec(0xA2)
    r[40] = 1
    return r


def notify():
    r = rec(0xA6)
    r[13] = 1
    put(r, 16, 0x55, 4)
    return r


def dma():
    r = rec(0xB8)
    r[13], r[14] = 9, 1
    put(r, 16, 0x02000000, 8)
    put(r, 24, 1, 4)
    put(r, 32, 64, 2)
    put(r, 34, 1, 2)
    put(r, 36, 4, 2)
    put(r, 40, 0x2000000000, 8)
    put(r, 48, 1, 4)
    put(r, 56, 64, 2)
    put(r, 58, 1, 2)
    put(r, 60, 4, 2)
    r[62] = r[63] = 0x9
    return r


def dmai():
    r = rec(0xBB)
    r[12], r[13], r[14], r[15] = 9, 1, 128, 0
    put(r, 16, 0x02000000, 8)
    put(r, 24, 1, 4)
    put(r, 28, 4, 2)
    put(r, 30, 4, 2)
    put(r, 32, 0x2000000000, 8)
    put(r, 40, 1, 4)
    put(r, 44, 4, 2)
    put(r, 46, 4, 2)
    put(r, 48, 0x100, 4)
    r[56] = r[57] = 0x9
    return r


def pseudo_load():
    r = rec(0xCE)
    r[12], r[14], r[15], r[32] = 0x9, 1, 1, 1
    return r


def mod(base, *edits):
    r = base()
    for off, val, n in edits:
        put(r, off, val, n)
    return r


# (predicate id, name, record, exit status)
CASES = [
    (1, "header_word_len", mod(nop, (1, 0x08, 1)), 132),
    (2, "header_debug_cmd", mod(nop, (2, 2, 1)), 132),
    (3, "events_wait_mode", mod(nop, (4, 0x08, 1)), 132),
    (4, "events_update_mode", mod(nop, (6, 0x0B, 1)), 132),
    (5, "events_unused_zero", mod(nop, (5, 5, 1)), 132),
    (6, "events_reg_range", mod(nop, (4, 0x85, 1), (8, 64, 4)), 132),
    (7, "reserved_zero", mod(nop, (40, 1, 1)), 132),
    (8, "addr8_marker", mod(write, (16, 0, 8), (23, 0x40, 1)), 132),
    (9, "addr8_fields", mod(write, (16, 64, 1), (17, 0, 7), (23, 0x80, 1)), 132),
    (10, "valid_start_addr", mod(write, (16, 0x02000002, 8)), 132),
    (16, "mem2d_num_elem_range", mod(lambda: m2d(0xAA), (14, 0, 1)), 132),
    (17, "mem2d_dtype_check", mod(lambda: m2d(0xAA), (12, 0x6, 1)), 132),
    (18, "pseudo_mem2d_dtype_check", mod(pseudo_load, (12, 0x1, 1), (32, 2, 1)), 125),
    (19, "mem2d_datasrc_zero", mod(lambda: m2d(0xAA), (13, 1, 1)), 132),
    (20, "mem2d_datasrc_valid", mod(lambda: m2d(0xAB), (13, 2, 1)), 132),
    (21, "mem2d_32_elem_check", mod(lambda: m2d(0xAA), (14, 3, 1), (15, 11, 1)), 132),
    (22, "mem2d_store_num_elem_check",
     mod(lambda: m2d(0xAB), (12, 0x5, 1), (13, 1, 1), (14, 17, 1), (32, 0, 1)), 132),
    (23, "mem2d_u64_register_check",
     mod(lambda: m2d(0xAA), (12, 0x1, 1), (32, 2, 1), (40, 3, 1)), 132),
    (24, "mem2d_register_range", mod(lambda: m2d(0xAA), (32, 64, 1)), 132),
    (32, "ctrl_mv_valid_num", mod(move, (12, 9, 1)), 132),
    (33, "ctrl_mv_reserved_zero", mod(move, (15, 1, 1)), 132),
    (34, "ctrl_mv_has_valid_dtype", mod(move, (13, 0x3, 1)), 132),
    (35, "ctrl_mv_valid_source", mod(move, (14, 2, 1)), 132),
    (36, "ctrl_mv_valid_register", mod(move, (24, 64, 1)), 132),
    (37, "ctrl_mv_unique_dst", mod(move, (12, 2, 1), (24, 1, 1), (25, 1, 1)), 132),
    (38, "ctrl_mv_dst_not_src", mod(move, (14, 0, 1), (16, 1, 1), (24, 1, 1)), 132),
    (40, "alu_op_supported", mod(alu, (12, 0x1A, 1)), 132),
    (41, "alu_dtype", mod(alu, (13, 0x3, 1)), 132),
    (42, "alu_dst_dtype", mod(alu, (15, 0x8, 1)), 132),
    (43, "alu_datasrc", mod(alu, (14, 2, 1)), 132),
    (44, "alu_registers", mod(alu, (17, 1, 1)), 132),
    (45, "alu_imm_range", mod(alu, (24, 0x100000005, 8)), 132),
    (46, "alu_op_dtype", mod(alu, (12, 0x0A, 1), (13, 0xA, 1)), 132),
    (48, "br_cmp_op", mod(branch, (12, 7, 1)), 132),
    (49, "br_dtype", mod(branch, (12, 0, 1), (32, 0, 1)), 132),
    (50, "br_target_mode", mod(branch, (14, 2, 1)), 132),
    (51, "br_operands_zero", mod(branch, (12, 0, 1), (13, 0, 1), (32, 0, 1), (16, 1, 1)), 132),
    (52, "br_registers", mod(branch, (32, 64, 1)), 132),
    (53, "br_link", mod(branch, (15, 2, 1)), 132),
    (54, "br_rel_imm_range", mod(branch, (48, 32, 8)), 132),
    (56, "wr_fields", mod(write, (12, 2, 1)), 132),
    (57, "notify_fields", mod(notify, (12, 4, 1)), 132),
    (58, "evsem_std_update_zero", mod(evsem, (6, 0x03, 1)), 132),
    (59, "evsem_ext_events", mod(evsem, (32, 0x08, 1)), 132),
    (60, "grst_mode", mod(semclr, (12, 3, 1)), 132),
    (61, "grst_fields", mod(semclr, (13, 5, 1), (14, 3, 1)), 132),
    (62, "drain_count", mod(drain, (40, 2, 1)), 132),
    (64, "dma_num_elem", mod(dma, (32, 0, 2), (56, 0, 2)), 132),
    (65, "dma_byte_count", mod(dma, (56, 32, 2)), 132),
    (66, "dma_compute_op", mod(dma, (15, 5, 1)), 132),
    (67, "dma_dtypes", mod(dma, (63, 0x8, 1)), 132),
    (68, "dma_bound_check_inert", mod(dma, (38, 1, 1)), 132),
    (69, "dma_configs", mod(dma, (12, 5, 1)), 132),
    (72, "dmai_flags", mod(dmai, (15, 3, 1)), 132),
    (73, "dmai_index_count", mod(dmai, (28, 0, 2)), 132),
    (74, "dmai_idx_addr", mod(dmai, (48, 0x30000, 4)), 132),
    (75, "dmai_active_channels", mod(dmai, (14, 64, 1)), 132),
    (76, "dmai_shape", mod(dmai, (44, 3, 2)), 132),
    (80, "pseudo_call_fields", rec(0xD3), 125),  # empty function name
    (81, "pseudo_exit_subop", mod(lambda: rec(0xDF), (12, 3, 1)), 125),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    names = []
    for pid, name, r, status in CASES:
        fname = f"pred-{name.replace('_', '-')}.s"
        names.append(fname[:-2])
        hexs = " ".join(f"{b:02x}" for b in r)
        lines = [
            f"; Predicate {pid} {name} (sequencer.md §10): a base record of opcode",
            f"; 0x{r[0]:02x} with one field changed (generated by gen-pred-images.py).",
            f"; exit: {status}",
        ]
        if status == 132:
            lines.append(
                f"; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info={name} "
                "pc=0x0000000001000000 addr=0x0000000000000000")
        else:
            lines.append(f"; stderr-contains: fails predicate {name} ({pid})")
        lines += ["        .org 0x01000000", f"start:  .rec {hexs}", "        halt", ""]
        with open(os.path.join(here, fname), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    with open(os.path.join(here, "pred-images.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
