#!/usr/bin/env python3
"""Commit log, timeline, coverage and statistics, run the way users run them
(TAP output).  Formats: docs/tracing.rst.

usage: test_trace.py NXEMU NXEMU_AS TESTS_TRACE_DIR

Images (tests/trace/): mix.s, a known instruction mix whose expected commit
lines and coverage numbers are written out below from the sequencer
specification; fault.s, a decode fault; timeline.s + timeline.tpc.s, two
sequencers, one DMA transfer and one TPC kernel.

Every check runs: a missing commit log or timeline is a failure, not a skip.
"""
import json
import os
import subprocess
import sys
import tempfile

RESULTS = []


def check(name, cond, why="", skip=None):
    RESULTS.append((name, bool(cond), why, skip))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


# ---- expectations from the specification ---------------------------------------
# mix.s: (pc offset, opcode byte (sequencer.md §6), results after " ; ").
# Values follow the instruction semantics: mov writes 5 and 7; add 5+7=12;
# sub 7-10 wraps to 0xfffffffd; tst stores r3, r4 at consecutive u32
# elements; tld.u16 zero-extends the low half of the little-endian word
# 0x11223344; post.r(sem3 += 2) then post(sem3--) after the wait held; the
# taken beq writes nothing; the FINISHER write is a device register.
MIX = [
    (0x000, 0xA7, ["r1=0x00000005", "r2=0x00000007"]),
    (0x040, 0xA8, ["r3=0x0000000c"]),
    (0x080, 0xA8, ["r4=0xfffffffd"]),
    (0x0C0, 0xAB, ["mem[0x0000000002000010]=0x0000000c", "mem[0x0000000002000014]=0xfffffffd"]),
    (0x100, 0xAA, ["r5=0x00003344"]),
    (0x140, 0xA4, ["sem[3]=2"]),
    (0x180, 0xA4, ["sem[3]=1"]),
    (0x1C0, 0xA5, ["mem[0x0000000002000020]=0x0000abcd"]),
    (0x200, 0xA9, []),
    (0x280, 0xA5, ["io[0x0000002805000000]/4"]),
]
MIX_DISAS_START = ["mov.u32", "add.u32", "sub.u32", "tst.u32", "tld.u16", "nop", "nop",
                   "write.u32", "beq.u32", "write.u32"]
# Coverage of mix.s: category -> (covered, total or None, hits).  Totals: §6
# has 15 opcodes, §3 15 data types, §5 6 ADDR8 forms, COMPARE_BRANCH 7
# conditions and 4 target modes, machine.md §9 9 sequencer fault codes.
MIX_COVERAGE = {
    "opcodes": (7, 15, {"mov": 1, "alu": 2, "tst": 1, "tld": 1, "nop": 2, "write": 2, "b": 1}),
    "alu_ops": (2, None, {"add": 1, "sub": 1}),
    "dtypes": (2, 15, {"u32": 7, "u16": 1}),
    "addr_modes": (1, 6, {"imm": 4}),
    "wait_modes": (1, None, {"sem_eq": 1}),
    "updates": (2, None, {"sem_add_imm.read": 1, "sem_dec.complete": 1}),
    "branch_conds": (1, 7, {"eq": 1}),
    "branch_targets": (1, 4, {"rel_imm": 1}),
    "faults": (0, 9, {}),
}


def commit_lines(text):
    return [l for l in text.splitlines() if l[:2] in ("C ", "F ")]


def parse_commit(line):
    """(kind, core, pc, encoding, disassembly, [results])"""
    parts = line.split(" ; ")
    head = parts[0].split(" ", 4)
    return head[0], head[1], head[2], head[3], head[4] if len(head) > 4 else "", parts[1:]


def test_direct(nxemu, tmp, tl_elf, ko):
    # The TPC's direct loop is observed like the staged path: one commit line
    # per bundle, in order, with its results.  direct.tpc.s: gen_addr, loop,
    # its delay slot, 3 passes of 3 body bundles (the 2nd and 3rd run by
    # the direct loop), st_g, halt = 14 lines; S1 goes 2, 4, 6, V1 = S1 and
    # V2 = 2 * V1 in every i32 lane.
    r = run([nxemu, "-smp", "seq=2", "-device", f"loader,file={tl_elf}",
             "-device", f"loader,file={tl_elf},cpu-num=1",
             "-device", f"loader,file={ko},addr=0x100000,tpc-num=0", "-d", "commit"])
    tpc = [l for l in commit_lines(r.stderr) if l.split(" ", 2)[1] == "tpc0"]
    pcs = [int(parse_commit(l)[2], 16) for l in tpc]
    check("direct: one commit line per TPC bundle, in order", r.returncode == 0 and
          pcs == [0x00, 0x20, 0x40] + [0x60, 0x80, 0xa0] * 3 + [0xc0, 0xe0],
          "\n".join(tpc) or r.stderr)
    last = " ".join(" ".join(parse_commit(l)[5]) for l in tpc[9:12])
    check("direct: the direct bundles' results are in their lines",
          "S1=0x00000006" in last and "V1=" + "06000000" * 64 in last and
          "V2=" + "0c000000" * 64 in last, last[:300])


def test_help(nxemu):
    r = run([nxemu, "-d", "help"])
    names = [l.split()[0] for l in r.stdout.splitlines()[1:] if l.strip()]
    check("-d help lists commit and stats", r.returncode == 0 and "commit" in names
          and "stats" in names, r.stdout)
    r = run([nxemu, "-help"])
    check("-help lists -trace-json and -coverage",
          "-trace-json FILE" in r.stdout and "-coverage FILE" in r.stdout, r.stdout)


def test_mix(nxemu, tmp, mix):
    r = run([nxemu, "-device", f"loader,file={mix}", "-d", "commit"])
    lines = commit_lines(r.stderr)
    skip = None
    check("mix: exits 0 with -d commit", r.returncode == 0, r.stderr)
    ok, why = len(lines) == len(MIX), f"{len(lines)} lines: {r.stderr[:2000]}"
    for i, (off, opc, results) in enumerate(MIX):
        if not ok:
            break
        kind, core, pc, enc, dis, res = parse_commit(lines[i])
        want_pc = f"0x{0x01000000 + off:016x}"
        if (kind, core, pc) != ("C", "seq0", want_pc):
            ok, why = False, f"line {i}: {kind} {core} {pc}, expected C seq0 {want_pc}"
        elif len(enc) != 128 or enc != enc.lower() or int(enc[:2], 16) != opc:
            ok, why = False, f"line {i}: encoding {enc}"
        elif dis.split(" ")[0] != MIX_DISAS_START[i]:
            ok, why = False, f"line {i}: disassembly {dis}"
        elif res != results:
            ok, why = False, f"line {i}: results {res}, expected {results}"
    check("mix: commit lines (pc, encoding, disassembly, results)", ok, why, skip)
    # the log goes to -D FILE when given, and stderr keeps only diagnostics
    logf = os.path.join(tmp, "commit.log")
    r2 = run([nxemu, "-device", f"loader,file={mix}", "-d", "commit", "-D", logf])
    with open(logf, encoding="utf-8") as f:
        flines = commit_lines(f.read())
    check("mix: -D FILE receives the commit lines", r2.returncode == 0 and flines == lines
          and not commit_lines(r2.stderr), r2.stderr, skip)
    # off by default
    r3 = run([nxemu, "-device", f"loader,file={mix}"])
    check("mix: nothing without -d commit", r3.returncode == 0 and not commit_lines(r3.stderr),
          r3.stderr)


def test_fault(nxemu, tmp, img):
    cov = os.path.join(tmp, "fault-cov.json")
    r = run([nxemu, "-device", f"loader,file={img}", "-d", "commit", "-coverage", cov])
    lines = commit_lines(r.stderr)
    skip = None
    ok = len(lines) == 2
    if ok:
        k0, _, pc0, _, _, res0 = parse_commit(lines[0])
        k1, _, pc1, enc1, _, res1 = parse_commit(lines[1])
        ok = (k0, pc0, res0) == ("C", "0x0000000001000000", ["r1=0x00000001"]) and \
             (k1, pc1) == ("F", "0x0000000001000040") and enc1.startswith("b310") and \
             res1 == ["fault=INVALID_OPCODE(1) info=0x0 addr=0x0000000000000000"]
    check("fault: F line with the fault code", r.returncode == 132 and ok, r.stderr, skip)
    with open(cov, encoding="utf-8") as f:
        c = json.load(f)["isas"]["seq"]["categories"]["faults"]
    check("fault: coverage records INVALID_OPCODE", c["hits"] == {"INVALID_OPCODE": 1}
          and c["covered"] == 1 and c["total"] == 9, json.dumps(c))
    # -trace-json: the fault instant at the fault's time, vtime 1 (after the
    # one-cycle mov), where the run ended, not at the last round's start (0)
    tj = os.path.join(tmp, "fault.json")
    r = run([nxemu, "-device", f"loader,file={img}", "-trace-json", tj])
    with open(tj, encoding="utf-8") as f:
        inst = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "i"]
    check("fault: the trace's fault instant at vtime 1", r.returncode == 132 and
          [(e["name"], e["ts"]) for e in inst] == [("INVALID_OPCODE", 1)], repr(inst))


def test_coverage(nxemu, tmp, mix):
    path = os.path.join(tmp, "cov.json")
    r = run([nxemu, "-device", f"loader,file={mix}", "-coverage", path])
    check("coverage: run exits 0", r.returncode == 0, r.stderr)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        with open(path + ".txt", encoding="utf-8") as f:
            summary = f.read()
    except (OSError, ValueError) as e:
        check("coverage: JSON and summary written", False, str(e))
        return
    check("coverage: JSON and summary written", doc.get("format") == "nxemu-coverage-1")
    skip = None
    seq = doc["isas"]["seq"]
    ok, why = seq["instructions"] == len(MIX), f"instructions={seq['instructions']}"
    for cat, (covered, total, hits) in MIX_COVERAGE.items():
        c = seq["categories"][cat]
        if c["covered"] != covered or (total is not None and c["total"] != total) or \
                c["hits"] != hits or c["other"] != {} or \
                len(c["missing"]) != c["total"] - c["covered"]:
            ok, why = False, f"{cat}: {json.dumps(c)}"
            break
    check("coverage: sequencer numbers of mix.s", ok, why, skip)
    tpc = doc["isas"]["tpc"]
    check("coverage: no TPC bundles in mix.s", tpc["bundles"] == 0 and
          all(c["covered"] == 0 for c in tpc["categories"].values()) and
          tpc["categories"]["opcodes"]["total"] > 0, json.dumps(tpc)[:500])
    check("coverage: readable summary", "seq: 10 instructions" in summary and
          any(l.split()[:4] == ["opcodes", "7", "of", "15"] for l in summary.splitlines()),
          summary, skip)


def events_of(doc):
    return [e for e in doc["traceEvents"] if e.get("ph") != "M"]


def test_timeline(nxemu, nxemu_as, tmp, tl_elf, tl_ko):
    path = os.path.join(tmp, "tl.json")
    args = [nxemu, "-smp", "seq=2", "-device", f"loader,file={tl_elf}",
            "-device", f"loader,file={tl_elf},cpu-num=1",
            "-device", f"loader,file={tl_ko},addr=0x100000,tpc-num=0",
            "-trace-json", path, "-d", "stats"]
    r = run(args)
    check("timeline: run exits 0", r.returncode == 0, r.stderr)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        check("timeline: valid JSON", False, str(e))
        return None
    check("timeline: valid JSON", isinstance(doc.get("traceEvents"), list))
    meta = {(e["pid"], e["tid"]): e["args"]["name"] for e in doc["traceEvents"]
            if e.get("ph") == "M" and e["name"] == "thread_name"}
    procs = {e["pid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e.get("ph") == "M" and e["name"] == "process_name"}
    check("timeline: one track per sequencer, TPC and DMA engine",
          meta.get((1, 0)) == "seq0" and meta.get((1, 1)) == "seq1" and
          meta.get((2, 0)) == "tpc0" and meta.get((3, 0)) == "dma0" and
          procs == {1: "sequencers", 2: "TPCs", 3: "DMA engines", 4: "semaphores"}, repr(meta))
    ev = events_of(doc)
    for e in ev:
        if not (isinstance(e.get("ts"), int) and e["ts"] >= 0 and
                (e["ph"] != "X" or (isinstance(e.get("dur"), int) and e["dur"] >= 0))):
            check("timeline: well-formed events", False, json.dumps(e))
            break
    else:
        check("timeline: well-formed events", True)
    skip = None
    dma = [e for e in ev if e["pid"] == 3 and e["ph"] == "X"]
    check("timeline: one DMA span of 256 bytes by core 0",
          len(dma) == 1 and dma[0]["args"]["bytes"] == 256 and dma[0]["args"]["owner"] == 0 and
          dma[0]["dur"] > 0, json.dumps(dma))
    kern = [e for e in ev if e["pid"] == 2 and e["ph"] == "X"]
    check("timeline: one TPC kernel span of 3 bundles",
          len(kern) == 1 and kern[0]["name"] == "kernel" and kern[0]["args"]["bundles"] == 3,
          json.dumps(kern))
    seq0 = [e for e in ev if e["pid"] == 1 and e["tid"] == 0 and e["ph"] == "X"]
    seq1 = [e for e in ev if e["pid"] == 1 and e["tid"] == 1 and e["ph"] == "X"]
    insn0 = [e for e in seq0 if not e["name"].startswith("blocked")]
    # core 0 retires 14 instructions (timeline.s), core 1 four
    check("timeline: one span per retired instruction", len(insn0) == 14 and
          len([e for e in seq1 if not e["name"].startswith("blocked")]) == 4 and
          insn0[0]["name"] == "tld.u32" and insn0[2]["name"] == "dma" and
          insn0[-1]["name"] == "halt", json.dumps(insn0)[:800], skip)
    waits = sorted(e["name"] for e in seq0 + seq1 if e["name"].startswith("blocked"))
    check("timeline: semaphore waits as spans", waits == [
        "blocked wait=sem[10] ge 1", "blocked wait=sem[5] ge 1", "blocked wait=sem[9] ge 1"],
        str(waits), skip)
    # spans on one track never overlap (they would not display)
    ok, why = True, ""
    for track in (seq0, seq1):
        spans = sorted((e["ts"], e["ts"] + e["dur"]) for e in track)
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                ok, why = False, f"{a} overlaps {b}"
    check("timeline: spans of a core do not overlap", ok, why, skip)
    # the DMA completes before the core's wait on sem9 ends
    w9 = [e for e in seq0 if e["name"] == "blocked wait=sem[9] ge 1"]
    check("timeline: the wait on sem9 ends when the DMA completed",
          len(w9) == 1 and len(dma) == 1 and w9[0]["ts"] + w9[0]["dur"] >= dma[0]["ts"] +
          dma[0]["dur"], json.dumps(w9 + dma), skip)
    # DMA timing (docs/machine.rst "DMA engines"): the idle engine starts the
    # 256-byte copy when the dma instruction queues it, and it costs
    # latency 32 + ceil(256 / 64) = 36 cycles from there, not from the start
    # of the round; the waiting core sees it from the first round boundary
    # (a multiple of the quantum, 64) at or after completion.
    if len(dma) == 1 and len(w9) == 1 and len(insn0) > 2:
        issue, done = insn0[2]["ts"], dma[0]["ts"] + dma[0]["dur"]
        check("timeline: the DMA costs 36 cycles from its issue",
              dma[0]["ts"] == issue and dma[0]["dur"] == 36, json.dumps([insn0[2]] + dma), skip)
        check("timeline: the wait on sem9 ends at the round after completion",
              w9[0]["ts"] + w9[0]["dur"] == -(-done // 64) * 64, json.dumps(w9 + dma), skip)
    else:
        check("timeline: the DMA costs 36 cycles from its issue", False, json.dumps(dma), skip)
    # semaphore values as counters: sem9 becomes 1 when the DMA completes,
    # sem5 when the kernel ends, sem10 when core 0 posts it
    cnt = {e["name"]: (e["ts"], e["args"]["value"]) for e in ev if e["ph"] == "C"}
    check("timeline: semaphore counters", set(cnt) == {"sem[9]", "sem[5]", "sem[10]"} and
          all(v == 1 for _, v in cnt.values()) and len(dma) == 1 and len(kern) == 1 and
          cnt["sem[9]"][0] == dma[0]["ts"] + dma[0]["dur"] and
          kern[0]["ts"] < cnt["sem[5]"][0] <= kern[0]["ts"] + kern[0]["dur"] and
          all(e["pid"] == 4 for e in ev if e["ph"] == "C"), repr(cnt), skip)
    return r


def test_stats(r):
    st = {}
    for l in r.stderr.splitlines():
        if l.startswith("stats: "):
            f = l.split()
            st[f[1]] = dict(kv.split("=", 1) for kv in f[2:] if "=" in kv)
    skip = None
    check("stats: printed at exit", {"run", "seq0", "seq1", "tpc0", "dma0", "dma", "waits"}
          <= set(st), r.stderr)
    if not {"seq0", "seq1", "tpc0", "dma0", "waits"} <= set(st):
        return
    check("stats: instructions per core and TPC bundles",
          st["seq0"]["insns"] == "14" and st["seq1"]["insns"] == "4" and
          st["tpc0"]["kernels"] == "1" and st["tpc0"]["bundles"] == "3", r.stderr)
    check("stats: final states: both cores HALTED, the TPC DONE",
          st["seq0"]["state"] == "HALTED" and st["seq1"]["state"] == "HALTED" and
          st["tpc0"]["state"] == "DONE", r.stderr)
    check("stats: DMA bytes per engine", st["dma0"]["requests"] == "1" and
          st["dma0"]["bytes"] == "256" and st.get("dma", {}).get("bytes") == "256", r.stderr)
    check("stats: stalls and semaphore waits",
          st["seq0"]["stalls"] == "2" and st["seq1"]["stalls"] == "1" and
          st["waits"] == {"total": "3", "sem[5]": "1", "sem[9]": "1", "sem[10]": "1"} and
          int(st["seq0"]["stall_cycles"]) > 0, r.stderr, skip)


# 35 NOPs and the FINISHER write: 36 instructions of one cycle each
# (sequencer.md §8 timing), so the run ends at VTIME 36, inside round 0.
PASS36 = "        .text\n        .org 0x01000000\n" + "        nop\n" * 35 + \
    "        write.u32 [0x2805000000], 0x5555\n"


def stats_of(text):
    st = {}
    for l in text.splitlines():
        if l.startswith("stats: "):
            f = l.split()
            st[f[1]] = dict(kv.split("=", 1) for kv in f[2:] if "=" in kv)
    return st


def test_end_state(nxemu, nxemu_as, tmp):
    src = os.path.join(tmp, "pass36.s")
    elf = os.path.join(tmp, "pass36.elf")
    with open(src, "w") as f:
        f.write(PASS36)
    r = run([nxemu_as, src, "-o", elf])
    check("end state: image assembles", r.returncode == 0, r.stderr)
    r = run([nxemu, "-kernel", elf, "-d", "stats"])
    st = stats_of(r.stderr)
    check("end state: the run's vtime is where the last instruction retired",
          r.returncode == 0 and st.get("run") == {"vtime": "36", "icount": "36"}, r.stderr)
    check("end state: a core cut short by the test device is ENDED, an unused TPC IDLE",
          st.get("seq0", {}).get("state") == "ENDED" and
          st.get("tpc0", {}).get("state") == "IDLE", r.stderr)
    r = run([nxemu, "-kernel", elf, "-d", "stats", "-icount-limit", "10"])
    st = stats_of(r.stderr)
    check("end state: a limit stops the core at the limit's vtime",
          r.returncode == 123 and st.get("run") == {"vtime": "10", "icount": "10"} and
          st.get("seq0", {}).get("state") == "STOPPED", r.stderr)


# A counted loop: mov, then 100000 x (add, sub, bne), then the PASS write
# that ends the run: 1 + 3 * 100000 + 1 instructions retire.
LOOP = """        .org 0x01000000
        mov.u32 {r1}, {100000}
loop:   add.u32 r2, r2, 3
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        write.u32 [0x2805000000], 0x5555
        halt
"""


def test_compiled(nxemu, nxemu_as, tmp):
    """-d stats keeps the block compiler on and says how much it ran."""
    src = os.path.join(tmp, "loop.s")
    elf = os.path.join(tmp, "loop.elf")
    with open(src, "w") as f:
        f.write(LOOP)
    r = run([nxemu_as, src, "-o", elf])
    check("compiled: image assembles", r.returncode == 0, r.stderr)
    on = run([nxemu, "-kernel", elf, "-d", "stats"])
    off = run([nxemu, "-kernel", elf, "-d", "stats"], env=dict(os.environ, NXEMU_SEQ_JIT="off"))
    a, b = stats_of(on.stderr), stats_of(off.stderr)
    seq_on, seq_off = a.get("seq0", {}), b.get("seq0", {})
    check("compiled: the loop retires 300002 instructions either way",
          on.returncode == 0 and off.returncode == 0 and
          seq_on.get("insns") == "300002" and seq_off.get("insns") == "300002",
          on.stderr + off.stderr)
    check("compiled: NXEMU_SEQ_JIT=off runs none compiled", seq_off.get("compiled") == "0",
          off.stderr)
    host = sys.platform.startswith("linux") and os.uname().machine == "x86_64"
    n = int(seq_on.get("compiled", "0"))
    check("compiled: under -d stats nearly all of the loop runs compiled",
          n >= 270000 and n <= 300002, on.stderr,
          skip=None if host else "no block compiler on this host")
    strip = lambda t: "\n".join(" ".join(w for w in l.split() if not w.startswith("compiled="))
                                 for l in t.splitlines())
    check("compiled: every other statistic is the same with the compiler off",
          strip(on.stderr) == strip(off.stderr), on.stderr + off.stderr)


def test_diff(nxemu, tmp, tl_elf, tl_ko):
    outs = []
    for i in range(2):
        d = os.path.join(tmp, f"run{i}")
        os.mkdir(d)
        r = run([nxemu, "-smp", "seq=2", "-device", f"loader,file={tl_elf}",
                 "-device", f"loader,file={tl_elf},cpu-num=1",
                 "-device", f"loader,file={tl_ko},addr=0x100000,tpc-num=0",
                 "-d", "commit,stats", "-D", os.path.join(d, "log"),
                 "-trace-json", os.path.join(d, "t.json"), "-coverage", os.path.join(d, "c.json")])
        files = {}
        for n in ("log", "t.json", "c.json", "c.json.txt"):
            with open(os.path.join(d, n), encoding="utf-8") as f:
                files[n] = f.read()
        outs.append((r.returncode, r.stdout, r.stderr, files))
    same = outs[0] == outs[1]
    why = ""
    if not same:
        diff = run(["diff", "-r", os.path.join(tmp, "run0"), os.path.join(tmp, "run1")])
        why = diff.stdout[:2000]
    check("diff: two runs give identical commit log, stats, timeline and coverage", same, why)


def test_errors(nxemu, tmp, mix):
    bad = os.path.join(tmp, "no-such-dir", "t.json")
    r = run([nxemu, "-device", f"loader,file={mix}", "-trace-json", bad])
    errs = r.stderr.splitlines()
    check("errors: unwritable -trace-json is a usage error", r.returncode == 125 and
          len(errs) == 1 and errs[0].startswith(f"nxemu: -trace-json: {bad}:"), r.stderr)
    r = run([nxemu, "-device", f"loader,file={mix}", "-trace-json"])
    check("errors: -trace-json without a file", r.returncode == 125 and
          "-trace-json" in r.stderr, r.stderr)


def main():
    nxemu, nxemu_as, src = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        imgs = {}
        for name, extra in (("mix", []), ("fault", []), ("timeline", [])):
            out = os.path.join(tmp, name + ".elf")
            r = run([nxemu_as, os.path.join(src, name + ".s"), "-o", out] + extra)
            if r.returncode != 0:
                print("1..0 # SKIP images do not assemble: " + r.stderr.strip())
                return 0
            imgs[name] = out
        tl_ko = os.path.join(tmp, "timeline.o")
        r = run([nxemu_as, "-t", "tpc", "-o", tl_ko, os.path.join(src, "timeline.tpc.s")])
        if r.returncode != 0:
            print("1..0 # SKIP TPC kernel does not assemble: " + r.stderr.strip())
            return 0
        test_help(nxemu)
        test_mix(nxemu, tmp, imgs["mix"])
        test_fault(nxemu, tmp, imgs["fault"])
        test_coverage(nxemu, tmp, imgs["mix"])
        r = test_timeline(nxemu, nxemu_as, tmp, imgs["timeline"], tl_ko)
        if r is not None:
            test_stats(r)
        test_end_state(nxemu, nxemu_as, tmp)
        test_compiled(nxemu, nxemu_as, tmp)
        test_diff(nxemu, tmp, imgs["timeline"], tl_ko)
        dk = os.path.join(tmp, "direct.o")
        r = run([nxemu_as, "-t", "tpc", "-o", dk, os.path.join(src, "direct.tpc.s")])
        check("direct: kernel assembles", r.returncode == 0, r.stderr)
        if r.returncode == 0:
            test_direct(nxemu, tmp, imgs["timeline"], dk)
        test_errors(nxemu, tmp, imgs["mix"])
    print(f"1..{len(RESULTS)}")
    failed = 0
    for i, (name, ok, why, skip) in enumerate(RESULTS, 1):
        if ok:
            print(f"ok {i} {name}")
        elif skip:
            print(f"ok {i} {name} # SKIP {skip}")
        else:
            failed += 1
            print(f"not ok {i} {name}")
            for l in str(why).splitlines()[:20]:
                print(f"# {l}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
