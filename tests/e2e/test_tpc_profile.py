#!/usr/bin/env python3
"""nxemu-tpc-run's profiles (docs/timing.rst "Profiles"), TAP output.

usage: test_tpc_profile.py NXEMU_AS NXEMU_TPC_RUN LAUNCHER_ELF SRCDIR

Every expected figure is computed by hand from the documented latencies
(docs/timing.rst, "The latency table"), in interlocked mode:
  - a RAW stall: SPU mul.f32 (Pw E5) -> SPU add.f32 source (D2 / E3) needs
    6 cycles, the consumer issues 1 after: 5 stall cycles on S2, the
    producer named with its PC and disassembly; 3 bundles, 8 cycles;
  - the causes split: tests/tpc-run/add-f32.s on 4 vectors: set_indx waits
    3 x 4 on S20 of the mul.i32 (RAW S), the second ld_tnsr 3 x 4 for the
    port the first holds 256 / 64 = 4 cycles (MEM, producer: the first
    ld_tnsr), add.f32 3 x 4 on V2 of the second ld_tnsr (RAW V, E3 vs
    D2 / E3); a float MAC's destination written in the next cycle waits 1
    (RULE, Gaudi's write-after-write rule of 2);
  - loops: tests/tpc/timing-loop.s (its header): LOOP 1, one bundle, 4 trips,
    3 stalls in trips 2..4: 13 cycles, 3.25 per trip; LOOP 2, 4 bundles,
    3 trips, no stall: 12 cycles, 4 per trip; a jmpr loop (tests/tpc/jmp.s):
    add.i32 S2 -> cmp S2 (4: 3 stalls), cmp SP1 -> jmpr's predicate
    (E2 vs E1 / E2: 2, 1 stall), 3 trips: 7 cycles a trip, 21;
  - hot spots sorted by cycles, percentages summing to 100;
  - --profile-trace: Perfetto JSON whose "stall cycles" counter track
    shows RAW = 1 in cycles 1..5 of the RAW kernel and issue cycles at 0, 6, 7;
  - a run longer than 4096 cycles: the window doubles, no cycle lost;
  - unwritable profile files refused before the run (exit 125), two runs
    give the same files.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

NXAS, TPCRUN, LAUNCHER, SRC = sys.argv[1:5]
os.environ["NXEMU_TPC_LAUNCHER"] = LAUNCHER
t = Tap("nxemu-profile-")

RAW = """nop; mul.f32 S2, S1, S1; nop; nop
nop; add.f32 S3, S2, S1; nop; nop
halt
nop
nop
nop
"""
RULE = """nop; nop; mac.f32 V5, V0, S2; nop
nop; nop; mov.i32 V5, 0x1; nop
halt
nop
nop
nop
"""


def kernel(name, text=None):
    src = os.path.join(SRC, name) if text is None else t.write(name + ".s", text)
    out = t.path(os.path.basename(name) + ".o")
    t.assemble([NXAS, "-t", "tpc"], src, out)
    return out


def run(k, *opts, files=("p.txt", "p.json", "p.trace.json")):
    r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--arg", "0", "--tpc-timing",
              "interlocked", "--profile", t.path(files[0]), "--profile-json", t.path(files[1]),
              "--profile-trace", t.path(files[2]), *opts)
    assert r.returncode == 0, r.stderr
    with open(t.path(files[0])) as f:
        text = f.read()
    with open(t.path(files[1])) as f:
        js = json.load(f)
    with open(t.path(files[2])) as f:
        tr = json.load(f)
    return text, js["tpcs"][0], tr


def hot(p, pc):
    return next(h for h in p["hot_spots"] if h["pc"] == pc)


@t.test
def raw_stall_names_its_producer():
    text, p, _ = run(kernel("raw", RAW))
    assert p["cycles"] == 8 and p["bundles"] == 3 and p["stall_cycles"] == 5, p
    h = p["hot_spots"][0]
    assert h["pc"] == 0x20 and h["cycles"] == 6 and h["stall_cycles"] == 5, h
    assert h["stalls"]["RAW"]["S"] == 5, h
    assert h["waited_for"] == [{"pc": 0, "cause": "RAW", "reg": "S2", "cycles": 5, "times": 1,
                                "disasm": "nop; mul.f32 S2, S1, S1; nop; nop"}], h
    lines = text.splitlines()
    i = lines.index("         6   75.0%          5  0x00000020  nop; add.f32 S3, S2, S1; nop; nop")
    assert lines[i + 1] == ("                            5  <- RAW S2 of 0x00000000 (1 time): "
                            "nop; mul.f32 S2, S1, S1; nop; nop"), lines[i + 1]


@t.test
def stalls_split_by_cause_with_their_producers():
    k = kernel("tests/tpc-run/add-f32.s")
    a = t.path("a.bin")
    with open(a, "wb") as f:
        f.write(struct.pack("<256f", *range(256)))
    r = t.run(TPCRUN, "-k", k, "--index-space", "4,1", "-i", a + ":256x1:f32", "-i",
              a + ":256x1:f32", "-o", t.path("c.bin") + ":256x1:f32", "--tpc-timing",
              "interlocked", "--profile-json", t.path("add.json"))
    assert r.returncode == 0, r.stderr
    with open(t.path("add.json")) as f:
        p = json.load(f)["tpcs"][0]
    s = hot(p, 0x180)  # set_indx I2, ..., S20
    assert s["stalls"]["RAW"]["S"] == 12 and s["stall_cycles"] == 12, s
    assert [(w["pc"], w["cause"], w["reg"], w["cycles"], w["times"]) for w in s["waited_for"]] \
        == [(0x160, "RAW", "S20", 12, 4)], s
    m = hot(p, 0x1C0)  # the second ld_tnsr
    assert m["stalls"]["MEM"] == 12 and m["stalls"]["RAW"]["S"] == 0, m
    assert [(w["pc"], w["cause"], w["cycles"]) for w in m["waited_for"]] == [(0x1A0, "MEM", 12)], m
    assert m["waited_for"][0]["disasm"].startswith("ld_tnsr V1, 0x0, I2"), m
    v = hot(p, 0x1E0)  # add.f32 V3, V1, V2
    assert v["stalls"]["RAW"]["V"] == 12, v
    assert [(w["pc"], w["reg"], w["cycles"]) for w in v["waited_for"]] == [(0x1C0, "V2", 12)], v
    _, q, _ = run(kernel("rule", RULE))
    w = hot(q, 0x20)
    assert q["cycles"] == 4 and w["stalls"]["RULE"] == 1 and w["stall_cycles"] == 1, w
    assert [(x["pc"], x["cause"], x["reg"], x["cycles"]) for x in w["waited_for"]] \
        == [(0, "RULE", "V5", 1)], w


@t.test
def loops_roll_up():
    text, p, _ = run(kernel("tests/tpc/timing-loop.s"))
    loops = [(x["first"], x["last"], x["kind"], x["entries"], x["trips"], x["cycles"])
             for x in p["loops"]]
    assert loops == [(0x40, 0x40, "LOOP", 1, 4, 13), (0xA0, 0x100, "LOOP", 1, 3, 12)], loops
    assert p["loops"][0]["stalls"]["RAW"] == 9, p["loops"]
    assert ("  0x00000040  0x00000040  LOOP        1          4         13   43.3%         3.25"
            in text), text
    assert ("  0x000000a0  0x00000100  LOOP        1          3         12   40.0%         4.00"
            in text), text
    _, j, _ = run(kernel("tests/tpc/jmp.s"))
    loops = [(x["first"], x["last"], x["kind"], x["entries"], x["trips"], x["cycles"])
             for x in j["loops"]]
    assert loops == [(0, 0x40, "jump", 1, 3, 21)], loops
    assert j["cycles"] == 23 and j["bundles"] == 11, j


@t.test
def hot_spots_sorted_with_percentages():
    text, p, _ = run(kernel("tests/tpc/jmp.s"))
    cyc = [h["cycles"] for h in p["hot_spots"]]
    assert cyc == sorted(cyc, reverse=True) and cyc[0] == 12, cyc
    assert sum(cyc) == p["cycles"] == p["profiled_cycles"], (cyc, p)
    total = sum(h["percent"] for h in p["hot_spots"])
    assert abs(total - 100.0) < 1e-3, total
    assert p["hot_spots"][0]["percent"] == round(100.0 * 12 / 23, 6), p["hot_spots"][0]
    sec = text.split("hot spots:")[1].split("\n\n")[0].splitlines()[2:]
    shown = [float(ln.split()[1].rstrip("%")) for ln in sec if "<-" not in ln]
    assert abs(sum(shown) - 100.0) <= 0.05 * len(shown), shown


@t.test
def perfetto_counter_tracks():
    _, p, tr = run(kernel("raw", RAW))
    ev = tr["traceEvents"]
    assert {"name": "process_name", "ph": "M", "pid": 1, "tid": 0,
            "args": {"name": "tpc 0"}} in ev, ev[:3]
    stall = {e["ts"]: e["args"] for e in ev if e["ph"] == "C" and e["name"] == "stall cycles"}
    issue = {e["ts"]: e["args"]["issue"] for e in ev if e["ph"] == "C" and
             e["name"] == "issue cycles"}
    assert sorted(stall) == list(range(9)), stall  # one a cycle, and the end
    assert [ts for ts in sorted(stall) if stall[ts]["RAW"]] == [1, 2, 3, 4, 5], stall
    assert all(stall[ts]["RAW"] == 1 for ts in range(1, 6)), stall
    assert [ts for ts in sorted(issue) if issue[ts]] == [0, 6, 7], issue
    assert sum(a["RAW"] + a["MEM"] + a["RULE"] + a["LOOP"] for a in stall.values()) \
        == p["stall_cycles"] == 5


LONG = """loop S0, 0x1388, 1, <, End
nop
nop; add.i32 S2, S2, 0x1; nop; nop
End:
halt
nop
nop
nop
"""


@t.test
def perfetto_window_doubles_on_long_runs():
    # functional: LOOP, its delay slot, 5000 trips of one bundle, halt:
    # 5003 cycles, more than 4096 windows of 1, so windows of 2: 2502 of them
    k = kernel("long", LONG)
    r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--arg", "0", "--profile-trace",
              t.path("long.trace"), "--profile-json", t.path("long.json"))
    assert r.returncode == 0, r.stderr
    ev = json.load(open(t.path("long.trace")))["traceEvents"]
    assert {"name": "process_labels", "ph": "M", "pid": 1, "tid": 0,
            "args": {"labels": "window 2 cycles"}} in ev, ev[:2]
    issue = [e for e in ev if e["ph"] == "C" and e["name"] == "issue cycles"]
    assert [e["ts"] for e in issue] == list(range(0, 5006, 2)), issue[-3:]  # and the end
    assert sum(e["args"]["issue"] for e in issue) == 5003, issue[-3:]
    assert issue[-2]["args"]["issue"] == 1 and issue[0]["args"]["issue"] == 2, issue[-3:]
    loops = json.load(open(t.path("long.json")))["tpcs"][0]["loops"]
    assert [(x["kind"], x["trips"], x["cycles"]) for x in loops] == [("LOOP", 5000, 5000)], loops


@t.test
def bad_files_refused_and_runs_repeat():
    k = kernel("raw", RAW)
    for opt in ("--profile-json", "--profile-trace"):
        r = t.run(TPCRUN, "-k", k, "--index-space", "1", opt, t.path("no/such/dir/p"))
        assert r.returncode == 125 and opt in r.stderr and "bundles=" not in r.stderr, r.stderr
    outs = []
    for n in range(2):
        files = (f"d{n}.txt", f"d{n}.json", f"d{n}.trace")
        run(k, files=files)
        outs.append([open(t.path(f), "rb").read() for f in files])
    assert outs[0] == outs[1]


t.main()
