#!/usr/bin/env python3
"""The TPC timing model from the command line (docs/timing.rst), TAP output.

usage: test_tpc_timing.py NXEMU NXEMU_AS NXEMU_TPC_RUN LAUNCHER_ELF SRCDIR

SRCDIR is the source tree (its tests/tpc and tests/tpc-run kernels are used):
  - tests/tpc/timing-vendor-nop.s (a compiler schedule with one NOP removed)
    under --tpc-timing exposed --tpc-hazard-warn prints exactly one hazard
    line naming the bundle, slot, register, producer and distances, and the
    timing summary; interlocked counts the one stall cycle in CYCLES;
  - functional is the default and bit-identical to no option (output and
    statistics), and prints no timing line;
  - interlocked gives functional's output for a kernel with hazards
    (tests/tpc-run/add-f32.s) with more cycles than bundles;
  - two runs of each mode print the same lines and write the same bytes;
  - a bad mode is a one-line usage error, exit 125, for both tools;
  - --profile FILE: the summary (cycles, bundles, IPC, stalls by register
    file) and one annotated line per bundle, with the stall at the st_l_v;
    an unwritable FILE is refused before the run (exit 125);
  - --stats splits the bundles by tier (direct, loop plans, hoisted spans,
    staged); the load slot's mov.f32 V, S runs direct and in loop plans;
  - the jump and loop restrictions of tests/tpc/timing-flow.s: one line per
    broken rule with the bundles named, the same in every mode, none counted
    as a hazard, and nothing without --tpc-hazard-warn;
  - nxemu -trace-json has a counter track per stall cause whose last values
    are a hand-computed kernel's (RAW 1, RULE 1, MEM 0, LOOP 0) and sum to
    its stall cycles;
  - nxemu -d stats adds the TPC's stall cycles and hazards with a timing mode
    (the launcher run under nxemu, as docs/tpc-run.rst describes).
"""
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

NXEMU, NXAS, TPCRUN, LAUNCHER, SRC = sys.argv[1:6]
os.environ["NXEMU_TPC_LAUNCHER"] = LAUNCHER
t = Tap("nxemu-timing-")
STATS = re.compile(r"^nxemu-tpc-run: tpcs=(\d+) bundles=(\d+) cycles=(\d+) vtime=(\d+)$", re.M)


def kernel(rel):
    src = os.path.join(SRC, rel)
    out = t.path(os.path.basename(rel) + ".o")
    t.assemble([NXAS, "-t", "tpc"], src, out)
    return out


def vendor(*opts):
    k = kernel("tests/tpc/timing-vendor-nop.s")
    return t.run(TPCRUN, "-k", k, "--index-space", "1", "--arg", "0x200", "--arg", "0x100",
                 "--arg", "3", *opts)


def add_f32(name, *opts):
    k = kernel("tests/tpc-run/add-f32.s")
    a = [float(i) * 0.5 for i in range(256)]
    b = [float(i) * -0.25 for i in range(256)]
    for fn, v in (("a.bin", a), ("b.bin", b)):
        with open(t.path(fn), "wb") as f:
            f.write(struct.pack("<256f", *v))
    out = t.path(name)
    r = t.run(TPCRUN, "-k", k, "--index-space", "4,1", "-i", t.path("a.bin") + ":256x1:f32",
              "-i", t.path("b.bin") + ":256x1:f32", "-o", out + ":256x1:f32", *opts)
    assert r.returncode == 0, r.stderr
    with open(out, "rb") as f:
        return f.read(), r.stderr


@t.test
def exposed_reports_the_removed_nop():
    r = vendor("--tpc-timing", "exposed", "--tpc-hazard-warn")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if "warning" in ln]
    assert lines == ["nxemu: warning: tpc=0 hazard pc=0x00000300 slot=ST reg=V0 "
                     "producer=0x00000240 distance=6 needed=7"], r.stderr
    m = STATS.search(r.stderr)
    assert m and m.group(2) == "27" and m.group(3) == "27", r.stderr
    assert "nxemu-tpc-run: timing=exposed stall_cycles=0 hazards=1\n" in r.stderr, r.stderr


@t.test
def interlocked_counts_the_stall():
    r = vendor("--tpc-timing=interlocked")
    assert r.returncode == 0, r.stderr
    m = STATS.search(r.stderr)
    assert m and m.group(2) == "27" and m.group(3) == "28", r.stderr
    assert "timing=interlocked stall_cycles=1 hazards=1" in r.stderr, r.stderr
    assert "warning" not in r.stderr, r.stderr  # no report without --tpc-hazard-warn


@t.test
def functional_is_the_default_and_identical():
    plain = vendor()
    func = vendor("--tpc-timing", "functional")
    assert plain.returncode == 0 and func.returncode == 0, plain.stderr + func.stderr
    assert plain.stderr == func.stderr, (plain.stderr, func.stderr)
    assert "timing=" not in plain.stderr, plain.stderr
    m = STATS.search(plain.stderr)
    assert m and m.group(2) == m.group(3) == "27", plain.stderr
    d0, e0 = add_f32("o0.bin")
    d1, e1 = add_f32("o1.bin", "-tpc-timing", "functional")
    assert d0 == d1 and e0 == e1, (e0, e1)


@t.test
def interlocked_keeps_functional_results():
    d0, e0 = add_f32("f.bin")
    d1, e1 = add_f32("i.bin", "--tpc-timing", "interlocked")
    assert d0 == d1, "interlocked output differs from functional"
    m0, m1 = STATS.search(e0), STATS.search(e1)
    assert m0.group(2) == m1.group(2), (e0, e1)  # same bundles
    assert int(m1.group(3)) > int(m1.group(2)), e1  # stalls counted in CYCLES
    assert int(m1.group(4)) > int(m0.group(4)), (e0, e1)  # and in vtime


@t.test
def vtime_counts_every_stall():
    # sum-rows-f32 over 4096 x 64: 64 slices' worth of stalls; each stall
    # cycle delays the end by one (to the round granularity, 64 cycles)
    k = kernel("tests/tpc-kernels/sum-rows-f32.s")
    with open(t.path("rows.bin"), "wb") as f:
        f.write(struct.pack("<262144f", *([0.25] * 262144)))
    got = {}
    for mode in ("functional", "interlocked"):
        r = t.run(TPCRUN, "-k", k, "--index-space", "64", "-i", t.path("rows.bin") + ":4096x64:f32",
                  "-o", t.path("sums-" + mode) + ":4096:f32", "--tpc-timing", mode)
        assert r.returncode == 0, r.stderr
        m = STATS.search(r.stderr)
        st = re.search(r"stall_cycles=(\d+)", r.stderr)
        got[mode] = (int(m.group(3)), int(m.group(4)), int(st.group(1)) if st else 0)
    (cf, vf, _), (ci, vi, stalls) = got["functional"], got["interlocked"]
    assert stalls > 10000 and ci == cf + stalls, got
    assert abs((vi - vf) - stalls) < 64, got
    assert open(t.path("sums-functional"), "rb").read() == open(t.path("sums-interlocked"), "rb").read()


@t.test
def runs_are_deterministic():
    for mode in ("interlocked", "exposed"):
        a = vendor("--tpc-timing", mode, "--tpc-hazard-warn")
        b = vendor("--tpc-timing", mode, "--tpc-hazard-warn")
        assert a.returncode == b.returncode == 0 and a.stderr == b.stderr, (a.stderr, b.stderr)
        d0, e0 = add_f32("d0.bin", "--tpc-timing", mode)
        d1, e1 = add_f32("d1.bin", "--tpc-timing", mode)
        assert d0 == d1 and e0 == e1, (e0, e1)


@t.test
def bad_mode_is_a_usage_error():
    r = vendor("--tpc-timing", "fast")
    assert r.returncode == 125, r
    assert r.stderr == ("nxemu-tpc-run: --tpc-timing: unknown mode 'fast' (functional, "
                        "interlocked or exposed)\n"), r.stderr
    r = t.run(NXEMU, "-tpc-timing", "fast")
    assert r.returncode == 125, r
    assert r.stderr.count("\n") == 1 and "-tpc-timing: unknown mode 'fast'" in r.stderr, r.stderr


@t.test
def profile_annotates_each_bundle():
    prof = t.path("prof.txt")
    r = vendor("--tpc-timing", "interlocked", "--profile", prof)
    assert r.returncode == 0, r.stderr
    text = open(prof).read().splitlines()
    assert text[0].startswith("# nxemu-tpc-run profile") and "timing=interlocked" in text[0], text
    # 27 bundles, 28 cycles: IPC 27/28 = 0.964; three bundles use the VPU
    # (mov, sub, ash): 3/28 = 10.7%; no global memory (SLM only); the one
    # stall waited for a V register
    assert text[1] == ("tpc 0: cycles=28 bundles=27 ipc=0.964 vpu=10.7% bytes=0 (0.0/cycle) "
                       "stall_cycles=1 (S=0 SP=0 V=1 VP=0 I=0 AD=0 MEM=0 RULE=0 LOOP=0) hazards=1"), text[1]
    rows = {ln.split()[0]: ln.split() for ln in text[text.index("tpc 0 bundles:") + 2:]}
    assert len(rows) == 27, text  # every bundle up to the halt, once
    st = rows["0x00000300"]
    assert st[1:6] == ["1", "2", "1", "V:1", "1"] and "st_l_v S0, V0" in " ".join(st), st
    assert rows["0x00000000"][1:6] == ["1", "1", "0", "-", "0"], rows["0x00000000"]
    r = vendor("--profile", t.path("no/such/dir/p.txt"))
    assert r.returncode == 125 and "--profile" in r.stderr and "bundles=" not in r.stderr, r.stderr


@t.test
def memory_port_in_the_profile_and_its_machine_keys():
    # add-f32 on one row: 4 iterations of ld, ld, add, st (docs/timing.rst).
    # Default port, 64 B/cycle: the second ld_tnsr of each iteration waits
    # 3 cycles for the first's 256 / 64 = 4 (MEM 4 x 3 = 12); 12 accesses x
    # 256 = 3072 bytes; the 4 add.f32 issue in 4 of 78 cycles (5.1%); the
    # outer loop waits 3 for S13 of the add.i32 just before it (LOOP 3).
    prof = t.path("mem.txt")
    add_f32("m0.bin", "--tpc-timing", "interlocked", "--profile", prof)
    head = open(prof).read().splitlines()[1]
    assert head == ("tpc 0: cycles=78 bundles=37 ipc=0.474 vpu=5.1% bytes=3072 (39.4/cycle) "
                    "stall_cycles=41 (S=14 SP=0 V=12 VP=0 I=0 AD=0 MEM=12 RULE=0 LOOP=3) hazards=11"), head
    # a port of 256 B/cycle never makes the second load wait: no MEM, and
    # the add then waits for both loads (V 12, hazards 15) as without memory
    add_f32("m1.bin", "--tpc-timing", "interlocked", "--profile", prof, "-M", "gmem-bpc=256")
    head = open(prof).read().splitlines()[1]
    assert "cycles=66 " in head and "MEM=0 " in head and "hazards=15" in head, head
    # 10 cycles of load latency: 8 loads x 10 more, and each first load now
    # leaves the port free for the second (MEM 80)
    add_f32("m2.bin", "--tpc-timing", "interlocked", "--profile", prof, "-M",
            "gmem-latency=10,gmem-bpc=256")
    head = open(prof).read().splitlines()[1]
    assert "cycles=146 " in head and "MEM=80 " in head, head
    # the functional model never waits for memory
    d, e = add_f32("m3.bin", "-M", "gmem-latency=10")
    assert "cycles=37 " in e, e
    r = t.run(TPCRUN, "-k", kernel("tests/tpc-run/add-f32.s"), "--index-space", "1", "-M",
              "gmem-bpc=0")
    assert r.returncode == 125 and r.stderr.count("\n") == 1, r.stderr
    assert "gmem-bpc=0: must be 1..1048576" in r.stderr, r.stderr


@t.test
def stats_name_the_path_of_each_bundle():
    # add-f32 on one row: the 6-bundle inner loop runs 4 times; its first
    # pass decodes (staged), the other 3 run direct: 18 of the 37 bundles.
    # The second pass ends in the direct loop, so passes 3 and 4 (12
    # bundles) run by a loop plan; its spans are not hoisted, since the body
    # writes S20, which its SET_INDX reads (architecture.rst, "TPC bundles").
    # The timing model puts every bundle on the staged path.
    _, e = add_f32("s0.bin", "--stats")
    assert re.search(r"^nxemu-tpc-run: tpc0 bundles=37 direct=18 staged=19 loop=12 hoist=0 "
                     r"host=[0-9]+\.[0-9]{6} s$", e, re.M), e
    _, e = add_f32("s1.bin", "--stats", "--tpc-timing", "interlocked")
    assert re.search(r"^nxemu-tpc-run: tpc0 bundles=37 direct=0 staged=37 loop=0 hoist=0 host=",
                     e, re.M), e
    _, e = add_f32("s2.bin")
    assert "direct=" not in e, e


@t.test
def stats_load_slot_mov_runs_direct():
    # A 2-bundle body going round 4 times whose first bundle is the load
    # slot's mov.f32 V, S (a softmax's coefficient): the LOOP bundle, its
    # delay slot, the first trip (decoded) and HALT are staged; the second
    # trip runs direct, and at its end the body, all direct plans, goes to a
    # loop plan for trips 3 and 4 (architecture.rst, "TPC bundles").  Were
    # the mov staged, the body would have no loop plan and only the add
    # bundles of trips 2..4 would run direct.
    src = t.write("ld-mov.s", "loop 0x0, 0x4, 1, <, End\nnop\n"
                  "mov.f32 V1, S0; nop; nop; nop\nnop; nop; add.f32 V2, V1, V1; nop\n"
                  "End:\nhalt\nnop\nnop\nnop\n")
    k = t.path("ld-mov.o")
    t.assemble([NXAS, "-t", "tpc"], src, k)
    # (the block compiler, on by default, would take the body from trip 2)
    os.environ["NXEMU_TPC_JIT"] = "off"
    try:
        r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--farg", "1.5", "--stats")
    finally:
        del os.environ["NXEMU_TPC_JIT"]
    assert r.returncode == 0, r.stderr
    assert re.search(r"^nxemu-tpc-run: tpc0 bundles=11 direct=6 staged=5 loop=4 hoist=0 host=",
                     r.stderr, re.M), r.stderr


def jit_host():
    """the compiler needs x86-64 Linux with AVX2 and FMA; elsewhere "on"
    leaves it off and prints no jit= line"""
    flags = ""
    if os.path.exists("/proc/cpuinfo"):
        flags = open("/proc/cpuinfo").read()
    return os.uname().machine == "x86_64" and bool(re.search(r"\bavx2\b", flags)) and \
        bool(re.search(r"\bfma\b", flags))


JIT_HOST = jit_host()


@t.test
def stats_name_what_compiled_bodies_call():
    # The block compiler (user-manual.rst, on unless NXEMU_TPC_JIT=off): a
    # 3-bundle body going round 4 times, all direct plans, with VPU lane
    # loops.  As for the loop plans (above), trip 1 is decoded (staged),
    # trip 2 runs direct and trips 3 and 4 (6 bundles) run the compiled
    # body.  The two MACs, the scalar add (an SPU stencil) and the
    # VP-predicated add (its masked stencil) all run inline: nothing calls
    # the direct path.  The run is the same as without the compiler.
    src = t.write("jit.s", "nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x25; nop\n"
                  "loop 0x0, 0x4, 1, <, End\nnop\n"
                  "nop; nop; mac.f32 V0, V1, V2; nop\n"
                  "nop; add.i32 S1, S1, S2; mac.f32 V3, V1, S4; nop\n"
                  "nop; nop; add.f32 V4, V1, V2, VP1; nop\n"
                  "End:\nhalt\nnop\nnop\nnop\n")
    k = t.path("jit.o")
    t.assemble([NXAS, "-t", "tpc"], src, k)
    runs = []
    for jit in ("off", "on"):
        os.environ["NXEMU_TPC_JIT"] = jit
        try:
            r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--stats")
        finally:
            del os.environ["NXEMU_TPC_JIT"]
        assert r.returncode == 0, r.stderr
        assert re.search(r"^nxemu-tpc-run: tpc0 bundles=16 direct=9 staged=7 loop=6 hoist=0 host=",
                         r.stderr, re.M), r.stderr
        runs.append(STATS.findall(r.stderr))
    assert runs[0] == runs[1] == [("1", "16", "16", "2181")], runs
    if not JIT_HOST:
        assert "jit=" not in r.stderr, r.stderr
        return
    assert re.search(r"^nxemu-tpc-run: tpc0 jit=6 called: none$", r.stderr, re.M), r.stderr


@t.test
def stats_show_tpc_stalls():
    k = kernel("tests/tpc/timing-vendor-nop.s")
    blk = struct.pack("<IIQIIII", 0x4C50584E, 1, 0x02000000, 0, 0, 0, 0)
    blk += struct.pack("<10I", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<II", 0, 0)
    with open(t.path("block.bin"), "wb") as f:
        f.write(blk + bytes(128))
    base = [NXEMU, "-nographic", "-kernel", LAUNCHER, "-device",
            f"loader,file={t.path('block.bin')},addr=0x01f00000", "-device",
            f"loader,file={k},addr=0x02000000", "-d", "stats"]
    r = t.run(*base, "-tpc-timing", "interlocked")
    assert r.returncode == 0, r.stderr
    # the timing model runs every bundle staged
    assert ("stats: tpc0 kernels=1 faults=0 bundles=27 cycles=28 state=DONE stall_cycles=1 "
            "hazards=1 direct=0 staged=27\n") in r.stderr, r.stderr
    r = t.run(*base)
    # straight-line code: every bundle runs once, at its decode (staged)
    assert ("stats: tpc0 kernels=1 faults=0 bundles=27 cycles=27 state=DONE direct=0 "
            "staged=27\n") in r.stderr, r.stderr
    # -trace-json: the kernel span lasts its 28 cycles (stall included) and
    # the counter tracks end at the kernel's totals
    js = t.path("timing.json")
    r = t.run(*base, "-tpc-timing", "interlocked", "-trace-json", js)
    assert r.returncode == 0, r.stderr
    ev = json.load(open(js))["traceEvents"]
    span = [e for e in ev if e.get("ph") == "X" and e["name"] == "kernel"]
    assert len(span) == 1 and span[0]["dur"] == 28 and span[0]["args"]["cycles"] == 28, span

    def last(name):
        c = [e for e in ev if e.get("ph") == "C" and e["name"] == name]
        assert c and all(a["ts"] <= b["ts"] for a, b in zip(c, c[1:])), (name, c)
        return c[-1]["args"]["value"], c[-1]["ts"]
    assert last("tpc0 cycles") == (28, span[0]["ts"] + 28), last("tpc0 cycles")
    assert last("tpc0 stall cycles")[0] == 1 and last("tpc0 gmem bytes")[0] == 0
    r = t.run(*base, "-trace-json", js)  # functional: no counter tracks
    assert not [e for e in json.load(open(js))["traceEvents"] if e.get("ph") == "C" and
                e["name"].startswith("tpc0")], "counters without a timing model"


@t.test
def jump_and_loop_restrictions_are_named():
    k = kernel("tests/tpc/timing-flow.s")
    want = [  # PCs and bundle counts by hand (the kernel's comment)
        "nxemu: warning: tpc=0 hazard pc=0x00000000 slot=LOOP rule=LOOP-BODY "
        "loop=0x00000040..0x00000060 bundles=2 needed=6",
        "nxemu: warning: tpc=0 hazard pc=0x00000040 slot=SPU reg=S2 producer=0x00000040 "
        "distance=2 needed=4",
        "nxemu: warning: tpc=0 hazard pc=0x00000120 slot=SPU rule=JMP-LOOP-END "
        "loop=0x000000c0..0x000001a0 bundles=4 needed=6",
        "nxemu: warning: tpc=0 hazard pc=0x00000180 slot=SPU rule=JMP-TARGET "
        "loop=0x000000c0..0x000001a0 bundles=1 needed=3",
        "nxemu: warning: tpc=0 hazard pc=0x000001e0 slot=SPU rule=JMP-NEXT reg=- "
        "producer=0x000001c0 distance=1 needed=2",
        "nxemu: warning: tpc=0 hazard pc=0x00000280 slot=SPU rule=JMP-AFTER reg=- "
        "producer=0x00000240 distance=1 needed=3",
    ]
    for mode, cycles in (("functional", 19), ("interlocked", 21), ("exposed", 19)):
        r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--tpc-timing", mode, "--tpc-hazard-warn")
        assert r.returncode == 0, r.stderr
        assert [ln for ln in r.stderr.splitlines() if "warning" in ln] == want, (mode, r.stderr)
        m = STATS.search(r.stderr)
        assert m and m.group(2) == "19" and m.group(3) == str(cycles), (mode, r.stderr)
        assert "hazards=1\n" in r.stderr, (mode, r.stderr)  # only the RAW read
    r = t.run(TPCRUN, "-k", k, "--index-space", "1", "--tpc-timing", "exposed")
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


@t.test
def trace_json_counts_stalls_by_cause():
    # issue cycles by hand (docs/timing.rst): 0x00 at 0 (float MUL to V1,
    # SPU add to S1); 0x20 writes V1 again: the WAW rule after a float MUL
    # needs 2, so 1 RULE cycle, issue 2; 0x40 reads S1 (SPU integer: 4) at
    # distance 3: 1 RAW cycle, issue 4; HALT at 5: 6 cycles
    src = t.write("causes.s", "nop; add.i32 S1, S1, 0x1; mul.f32 V1, V2, V3; nop\n"
                  "nop; nop; add.f32 V1, V4, V5; nop\nnop; add.i32 S2, S1, 0x1; nop; nop\n"
                  "halt\nnop\nnop\nnop\n")
    k = t.path("causes.o")
    t.assemble([NXAS, "-t", "tpc"], src, k)
    blk = struct.pack("<IIQIIII", 0x4C50584E, 1, 0x02000000, 0, 0, 0, 0)
    blk += struct.pack("<10I", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<II", 0, 0)
    with open(t.path("causes-block.bin"), "wb") as f:
        f.write(blk + bytes(128))
    js = t.path("causes.json")
    r = t.run(NXEMU, "-nographic", "-kernel", LAUNCHER, "-device",
              f"loader,file={t.path('causes-block.bin')},addr=0x01f00000", "-device",
              f"loader,file={k},addr=0x02000000", "-tpc-timing", "interlocked",
              "-trace-json", js)
    assert r.returncode == 0, r.stderr
    ev = json.load(open(js))["traceEvents"]

    def last(name):
        c = [e for e in ev if e.get("ph") == "C" and e["name"] == name]
        assert c and all(a["ts"] <= b["ts"] for a, b in zip(c, c[1:])), (name, c)
        return c[-1]["args"]["value"]
    assert last("tpc0 cycles") == 6 and last("tpc0 stall cycles") == 2
    got = {k: last("tpc0 stall cycles " + k) for k in ("RAW", "MEM", "RULE", "LOOP")}
    assert got == {"RAW": 1, "MEM": 0, "RULE": 1, "LOOP": 0}, got


t.main()
