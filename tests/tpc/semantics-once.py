#!/usr/bin/env python3
"""Each TPC instruction's arithmetic is written once (issue #12): a check of
the source, not of behaviour (tests/unit/test-tpc-fast-diff.c compares the
paths' results).

- the lane functions (tpc_lane_*) are defined in target/tpc/lane.h only;
- fused multiply-add, the one f32 primitive a hand copy would need, is
  called in lane.h only (everything else calls tpc_lane_f32_mac);
- lane-ops.def is the one (slot, op, type, switches) -> lane table that
  both the element tier (exec-alu.c) and the whole-register loops
  (vlane-impl.h) instantiate; its loop rows apply lane functions and
  nothing else;
- the direct path (cpu-direct.c) computes no element itself: its executors
  (run_*) and their helpers call only the functions listed below (lane
  loops through dc->vfn, the register fill of a load through dc->lfn, staged executors through dc->dexec, lane
  functions, operand and predicate access, tensor spans), and it has no
  float arithmetic at all.

usage: semantics-once.py SOURCE_ROOT
"""
import os
import re
import sys

DIRECT_CALLS = {
    # lane semantics and the loops that apply them
    "tpc_lane_int5", "vfn", "lfn", "dexec",
    # operands, predicates, blending under a predicate (operand.c)
    "tpc_pred_sp", "tpc_pred_mask", "tpc_rd_scalar", "tpc_vl_broadcast", "tpc_merge",
    "tpc_type_size", "vl_src_b", "set_indx", "irf_add", "vl_step", "vl_step_vp", "vpu_vp",
    # tensor spans and the store commit (tensor.c), staging commit (cpu.h)
    "tpc_prefetch_stream", "tpc_tensor_plan_span", "tpc_commit_slot", "memcpy",
    # compiler and GLib helpers
    "__builtin_ctz", "G_UNLIKELY", "G_LIKELY",
}
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "__typeof__", "defined"}


def strip(text):
    """C source without comments and string/char literals (same line count)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(q + q)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def functions(code):
    """{name: body} of the function definitions in code (a body: the text
    between its outermost braces)."""
    res = {}
    for m in re.finditer(r"^(?:static\s+)?(?:inline\s+)?[\w\s\*]*?\b(\w+)\s*\([^;{]*\)\s*\{",
                         code, re.M):
        depth, j = 1, m.end()
        while depth and j < len(code):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        res[m.group(1)] = code[m.end():j - 1]
    return res


def main():
    root = sys.argv[1]
    tdir = os.path.join(root, "target", "tpc")
    errors = []
    src = {}
    for name in sorted(os.listdir(tdir)):
        if name.endswith((".c", ".h")):
            with open(os.path.join(tdir, name)) as f:
                src[name] = strip(f.read())
    for name, code in src.items():
        if name == "lane.h":
            continue
        for m in re.finditer(r"^[\w \t\*]*\b(tpc_lane_\w+)\s*\([^;{)]*\)\s*\{", code, re.M):
            if m.group(1).startswith("tpc_lane_id"):
                continue  # the lane-id registers (operand.c), not a lane function
            errors.append(f"{name}: defines lane function {m.group(1)} (lane.h only)")
        for m in re.finditer(r"\b(__builtin_fmaf|fmaf|fma)\s*\(", code):
            line = code.count("\n", 0, m.start()) + 1
            errors.append(f"{name}:{line}: calls {m.group(1)} (tpc_lane_f32_mac)")
    # the element semantics table: loop rows (L, LA) apply lane functions
    # only; element-only rows (E) may also call exec-alu.c's alu_* helpers
    with open(os.path.join(tdir, "lane-ops.def")) as f:
        rows_src = strip(f.read())
    loops = []
    for m in re.finditer(r"^TPC_LANE(_INT|_ANY)?\((.*)\)\s*$", rows_src, re.M):
        args = [a.strip() for a in m.group(2).split(",")]
        kind = m.group(1) or ""
        tier = "L" if kind == "_ANY" else args[5] if kind == "_INT" else args[6]
        if tier in ("L", "LA"):
            loops.append(args[0])
        for call in re.findall(r"\b(\w+)\s*\(", m.group(2)):
            if call.startswith("tpc_lane_"):
                continue
            if tier == "E" and call.startswith("alu_"):
                continue
            errors.append(f"lane-ops.def: row {args[0]} ({tier}) calls {call}, "
                          "not a lane function")
    if len(loops) < 20:
        errors.append("lane-ops.def: fewer than 20 loop rows (has the file changed shape?)")
    tiers = [n for n in ("vlane-impl.h", "exec-alu.c")
             if '#include "target/tpc/lane-ops.def"' not in open(os.path.join(tdir, n)).read()]
    if tiers:
        errors.append("lane-ops.def is not what both tiers (vlane-impl.h, exec-alu.c) instantiate")
    direct = src["cpu-direct.c"]
    for m in re.finditer(r"\b(float|double|fmaf|sqrtf)\b", direct):
        line = direct.count("\n", 0, m.start()) + 1
        errors.append(f"cpu-direct.c:{line}: {m.group(1)} (the direct path computes no element)")
    fns = functions(direct)
    checked = [n for n in fns if n.startswith("run_") or n in ("set_indx", "vl_src_b", "irf_add",
                                                           "vl_step", "vl_step_vp", "vpu_vp")]
    if len(checked) < 5:
        errors.append(f"cpu-direct.c: only {checked} found as direct executors")
    for fn in checked:
        for call in re.findall(r"(?:\b|->)(\w+)\s*(?:\[[^\]]*\])?\s*\(", fns[fn]):
            if call not in DIRECT_CALLS and call not in KEYWORDS:
                errors.append(f"cpu-direct.c: {fn} calls {call} (not a lane function or an "
                              f"operand/tensor/commit helper: semantics must not be copied here)")
    for e in errors:
        print("semantics-once: " + e)
    print(f"semantics-once: {len(checked)} direct executors, "
          f"{len(loops)} lane loop definitions checked; "
          f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
