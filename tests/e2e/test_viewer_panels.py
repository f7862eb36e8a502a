#!/usr/bin/env python3
"""End-to-end test of the viewer's timeline, access-count table and data view
(docs/viewer.rst), on the screenshot of a real SDL window.

    test_viewer_panels.py NXEMU VIEWER_TIME_ELF VIEWER_TIME_TPC_O TPC4_ELF TPC4_O FAULT_ELF
                          [SHOTS_DIR]

tests/e2e/viewer-time.s runs on two sequencers: a 64 KiB DMA on engine 0
(cost 32 + 65536 / 64 = 1056 cycles, docs/machine.rst), a kernel on TPC 0, a
256-byte DMA on engine 1 (32 + 4 = 36 cycles), semaphore waits, and the
pattern 4p + i written as u32 into element i of SBUF partitions p = 0..3.
The run is made once with -trace-json as well: every bar must be where the
timeline file puts its span, at the documented scale (576 columns for the
run's vtime), and the DMA bars as long as the cost formula says.
tests/e2e/viewer-tpc4.s runs a kernel on each of four TPCs with
-tpc-timing interlocked -machine gmem-latency=200 (each kernel is 200 cycles
of load latency plus one per bundle): four kernel bars, again where
-trace-json puts them, and the cores panel says the four are DONE.
tests/trace/fault.s faults at its second instruction: the run ends at
vtime 1 and the fault's red mark is the last three columns of seq0's row.
With SHOTS_DIR the two screenshots are kept there as viewer-time.png and
viewer-tpc4.png (make check: build/docs/, the pictures docs/viewer.rst
describes).  Exit 77 (skip) when nxemu was built without SDL.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_viewer import check, read_png, read_text, lsan_suppress  # noqa: E402
import test_viewer  # noqa: E402

# docs/viewer.rst "Frame layout": timeline, table, data view.
TL_X, TL_BAR_X, TL_W, TL_Y, TL_ROW_H, TL_BAR_H, TL_ROWS = 8, 56, 576, 512, 10, 7, 20
TABLE_X, TABLE_Y, LINE_H = 652, 466, 9
DATA_X, DATA_Y, DATA_W, DATA_H = 880, 482, 392, 230
DMA, KERNEL, WAIT = (0x40, 0x80, 0xFF), (0x40, 0xE0, 0xA0), (0xFF, 0xC0, 0x40)
FAULT = (0xFF, 0x20, 0x20)
LATENCY, BYTES_PER_CYCLE = 32, 64  # the DMA defaults (docs/machine.rst)


def run(cmd, env=None, timeout=60):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def col(t, span):
    """Column of vtime t: TL_BAR_X + floor(t * 576 / span)."""
    return TL_BAR_X + min(t, span) * TL_W // span


def runs(row, y, colour):
    """(start, width) of each run of `colour` in the bar area of row y."""
    out, x = [], TL_BAR_X
    while x < TL_BAR_X + TL_W:
        if row[y][x] == colour:
            s = x
            while x < TL_BAR_X + TL_W and row[y][x] == colour:
                x += 1
            out.append((s, x - s))
        else:
            x += 1
    return out


def span_cols(spans, span):
    """The columns a list of (ts, dur) bars covers (each at least one wide)."""
    cols = set()
    for ts, dur in spans:
        x0 = col(ts, span)
        cols.update(range(x0, max(col(ts + dur, span), x0 + 1)))
    return cols


def timeline_checks(rows, trace, label):
    head = read_text(rows, 8, 6, 60)
    try:
        span = int(head.split("vtime=")[1].split()[0])
    except (IndexError, ValueError):
        check(False, "%s: header has the run's vtime (%r)" % (label, head))
        return
    tl_head = read_text(rows, TL_X, TL_Y - 12, 30)
    check(tl_head.startswith("timeline  vtime 0-%d " % span),
          "%s: timeline heading gives the vtime range 0-%d (%r)" % (label, span, tl_head))
    names = {}
    for r in range(TL_ROWS):
        name = read_text(rows, TL_X, TL_Y + TL_ROW_H * r, 6)
        if name:
            names[name] = TL_Y + TL_ROW_H * r
    want = ["seq0", "seq1", "tpc0"] + ["dma%d" % e for e in range(16)]
    check(all(n in names for n in want), "%s: one timeline row per core and engine (%s)"
          % (label, sorted(names)))
    if not all(n in names for n in want):
        return
    spans = {}
    for e in trace:
        if e.get("ph") == "X":
            spans.setdefault((e["pid"], e["tid"], e["name"].split()[0]), []).append(
                (e["ts"], e["dur"]))
    pids = {e["args"]["name"]: e["pid"] for e in trace
            if e.get("ph") == "M" and e.get("name") == "process_name"}
    for eng, nbytes in ((0, 65536), (1, 256)):
        cost = LATENCY + -(-nbytes // BYTES_PER_CYCLE)
        bars = runs(rows, names["dma%d" % eng], DMA)
        got = spans.get((pids.get("DMA engines"), eng, "dma"), [])
        check(len(bars) == 1 and len(got) == 1 and got[0][1] == cost,
              "%s: one %d-byte transfer on dma%d, %d cycles in -trace-json too (%r, %r)"
              % (label, nbytes, eng, cost, bars, got))
        if len(bars) != 1 or len(got) != 1:
            continue
        ts = got[0][0]
        x0, x1 = col(ts, span), col(ts + cost, span)
        check(bars[0] == (x0, x1 - x0),
              "%s: dma%d bar at columns %d-%d, %d wide (%r)" % (label, eng, x0, x1 - 1, x1 - x0,
                                                                 bars[0]))
        check(abs(bars[0][1] - cost * TL_W / span) <= 1,
              "%s: dma%d bar is %d cycles * 576 / %d = %.1f columns (%d)"
              % (label, eng, cost, span, cost * TL_W / span, bars[0][1]))
        # the bar is VIEW_TL_BAR_H rows tall, not taller
        y = names["dma%d" % eng]
        check(rows[y + TL_BAR_H - 1][x0] == DMA and rows[y + TL_BAR_H][x0] == (0, 0, 0),
              "%s: dma%d bar is %d rows tall" % (label, eng, TL_BAR_H))
    idle = [n for n in want[3 + 2:] if runs(rows, names[n], DMA)]
    check(not idle, "%s: no bars on the engines nobody used (%r)" % (label, idle))
    got = spans.get((pids.get("TPCs"), 0, "kernel"), [])
    bars = runs(rows, names["tpc0"], KERNEL)
    check(len(got) == 1 and len(bars) == 1 and
          bars[0] == (col(got[0][0], span),
                      max(col(sum(got[0]), span) - col(got[0][0], span), 1)),
          "%s: the kernel bar on tpc0 where -trace-json puts it (%r, %r)" % (label, bars, got))
    for s in (0, 1):
        got = spans.get((pids.get("sequencers"), s, "blocked"), [])
        lit = {x for x in range(TL_BAR_X, TL_BAR_X + TL_W)
               if rows[names["seq%d" % s]][x] == WAIT}
        check(got and lit == span_cols(got, span),
              "%s: seq%d's wait bars cover exactly -trace-json's blocked spans (%d spans, "
              "%d columns)" % (label, s, len(got), len(lit)))


def tpc4_checks(rows, trace, label):
    head = read_text(rows, 8, 6, 60)
    span = int(head.split("vtime=")[1].split()[0])
    pid = {e["args"]["name"]: e["pid"] for e in trace
           if e.get("ph") == "M" and e.get("name") == "process_name"}.get("TPCs")
    for t in range(4):
        y = TL_Y + TL_ROW_H * (1 + t)  # seq0, then tpc0..3
        name = read_text(rows, TL_X, y, 6)
        got = [(e["ts"], e["dur"], e["args"].get("cycles")) for e in trace
               if e.get("ph") == "X" and e["pid"] == pid and e["tid"] == t
               and e["name"] == "kernel"]
        bars = runs(rows, y, KERNEL)
        ok = name == "tpc%d" % t and len(got) == 1 and len(bars) == 1
        if ok:
            ts, dur, cycles = got[0]
            ok = cycles == 204 and dur == cycles and \
                bars[0] == (col(ts, span), col(ts + dur, span) - col(ts, span))
        check(ok, "%s: tpc%d's kernel bar: 204 cycles where -trace-json puts it (%r, %r, %r)"
              % (label, t, name, bars, got))
        core = read_text(rows, 880, 32 + 9 * (1 + t), 12)
        check(core.startswith("tpc%d  DONE" % t), "%s: cores panel: %r" % (label, core))
    # data=tensor:2:1: TPC 2's tensor 1 as its descriptor says (base
    # 0x01100000 + 2 * 0x1000, 64 i32, viewer-tpc4.s); the kernel stored
    # SRF0 + 2 = 44 in element 0 and nothing else: one white cell of 6 x 230
    # pixels (392 // 64), 63 black ones.
    head = read_text(rows, DATA_X, DATA_Y - 12, 50)
    check(head == "data tpc2 tensor 1 64x1 @0x1102000 i32 gray 0..44",
          "%s: tensor view heading (%r)" % (label, head))
    cells = [rows[DATA_Y + 115][DATA_X + 6 * i + 3] for i in range(64)]
    check(cells[0] == (255, 255, 255) and all(c == (0, 0, 0) for c in cells[1:])
          and rows[DATA_Y + 229][DATA_X + 5] == (255, 255, 255),
          "%s: tensor view: element 0 white, 63 black (%r)" % (label, cells[:3]))


def table_checks(rows, label):
    lines = [read_text(rows, TABLE_X, TABLE_Y + 12 + LINE_H * i, 36) for i in range(8)]
    check(read_text(rows, TABLE_X, TABLE_Y, 30) == "busiest SBUF partitions",
          "%s: the table's heading" % label)
    # p8 and p9 (the DMAs' destinations) before p0..p3 (four writes each,
    # equal counts in partition order); nothing else was touched.
    first = [ln.split()[0] for ln in lines if ln]
    check(sorted(first[:2]) == ["p8", "p9"] and first[2:] == ["p0", "p1", "p2", "p3"],
          "%s: partitions by accesses (%r)" % (label, first))
    check(all(ln.split()[1:] == ["w=4", "r=0"] for ln in lines[2:6]),
          "%s: p0..p3 were written 4 times, read never (%r)" % (label, lines[2:6]))
    psum = read_text(rows, TABLE_X, TABLE_Y + 12 + 8 * LINE_H + 6 + 12, 20)
    check(psum == "none accessed", "%s: no PSUM bank accessed (%r)" % (label, psum))


def data_checks(rows, label, colour_of):
    """data=sbuf:0-3+16: 4 rows of 4 i32, each element 98 x 57 pixels."""
    head = read_text(rows, DATA_X, DATA_Y - 12, 60)
    check(head.startswith("data sbuf p0-3 @0x00000 x4 i32 ") and head.endswith(" 0..15"),
          "%s: data view heading (%r)" % (label, head))
    bad = []
    for p in range(4):
        for i in range(4):
            want = colour_of((4 * p + i) / 15)
            for dx, dy in ((1, 1), (49, 28), (96, 55)):
                px = rows[DATA_Y + 57 * p + dy][DATA_X + 98 * i + dx]
                if px != want:
                    bad.append((p, i, dx, dy, px, want))
    check(not bad, "%s: every element drawn in its value's colour (%r)" % (label, bad[:4]))


def gray(t):
    v = int(t * 255 + 0.5)
    return (v, v, v)


def heat(t):
    def c(u):
        return int(min(max(u, 0.0), 1.0) * 255 + 0.5)
    return (c(3 * t), c(3 * t - 1), c(3 * t - 2))


def keep(shot, shots, name):
    if shots:
        os.makedirs(shots, exist_ok=True)
        shutil.copyfile(shot, os.path.join(shots, name))


def main(argv):
    if len(argv) not in (7, 8):
        print("usage: test_viewer_panels.py NXEMU ELF TPC_O TPC4_ELF TPC4_O FAULT_ELF "
              "[SHOTS_DIR]", file=sys.stderr)
        return 2
    nxemu, elf, ko, elf4, ko4, fault = argv[1:7]
    shots = argv[7] if len(argv) == 8 else None
    tmp = tempfile.mkdtemp(prefix="nxemu-viewer-panels-")
    lsan_suppress(tmp)
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen")
    base = [nxemu, "-smp", "seq=2", "-device", "loader,file=%s" % elf,
            "-device", "loader,file=%s,cpu-num=1" % elf,
            "-device", "loader,file=%s,addr=0x100000,tpc-num=0" % ko]
    try:
        shot, js = os.path.join(tmp, "panels.png"), os.path.join(tmp, "tl.json")
        r = run(base + ["-display", "sdl,data=sbuf:0-3+16,dtype=i32", "-trace-json", js,
                        "-screendump-at-exit", shot], env)
        if r.returncode == 125 and "without SDL" in r.stderr:
            print("# SKIP: " + r.stderr.strip())
            return 77
        check(r.returncode == 0, "run ends with the test device's PASS (status %d, %s)"
              % (r.returncode, r.stderr.strip()))
        try:
            _, _, rows = read_png(shot)
            with open(js, encoding="utf-8") as f:
                trace = json.load(f)
            trace = trace["traceEvents"] if isinstance(trace, dict) else trace
        except (OSError, ValueError) as e:
            check(False, "screenshot and timeline readable (%s)" % e)
            return 1
        keep(shot, shots, "viewer-time.png")
        timeline_checks(rows, trace, "timeline")
        table_checks(rows, "table")
        data_checks(rows, "data gray", gray)

        shot = os.path.join(tmp, "heat.png")
        r = run(base + ["-display", "sdl,data=sbuf:0-3+16,dtype=i32,cmap=heat",
                        "-screendump-at-exit", shot], env)
        check(r.returncode == 0, "heat: run ends with PASS (status %d)" % r.returncode)
        _, _, rows = read_png(shot)
        data_checks(rows, "data heat", heat)

        shot, js = os.path.join(tmp, "tpc4.png"), os.path.join(tmp, "tpc4.json")
        r = run([nxemu, "-smp", "tpc=4", "-tpc-timing", "interlocked", "-machine",
                 "gmem-latency=200", "-kernel", elf4, "-device",
                 "loader,file=%s,addr=0x100000" % ko4,
                 "-display", "sdl,data=tensor:2:1,dtype=i32",
                 "-trace-json", js, "-screendump-at-exit", shot], env)
        check(r.returncode == 0, "tpc4: run ends with PASS (status %d, %s)"
              % (r.returncode, r.stderr.strip()))
        _, _, rows = read_png(shot)
        keep(shot, shots, "viewer-tpc4.png")
        with open(js, encoding="utf-8") as f:
            trace = json.load(f)
        tpc4_checks(rows, trace["traceEvents"] if isinstance(trace, dict) else trace, "tpc4")

        shot = os.path.join(tmp, "fault.png")
        r = run([nxemu, "-kernel", fault, "-display", "sdl", "-screendump-at-exit", shot], env)
        check(r.returncode == 132, "fault: exit status 132 (INVALID_OPCODE) (%d)" % r.returncode)
        _, _, rows = read_png(shot)
        head = read_text(rows, 8, 6, 40)
        marks = runs(rows, TL_Y, FAULT)
        check("vtime=1 " in head and "ENDED FAULT" in head and marks == [(TL_BAR_X + TL_W - 3, 3)],
              "fault: a 3-column red mark at the end of seq0's row (%r, %r)" % (head, marks))

        for opt, what in (("sdl,data=sbuf:9-3", "data=sbuf:9-3"),
                          ("sdl,data=sbuf:0,dtype=f64", "dtype=f64"),
                          ("sdl,data=hbm:0x1000", "data=hbm:0x1000"),
                          ("sdl,cmap=heat", "cmap="),
                          ("sdl,colour=red", "colour=red")):
            r = run(base + ["-display", opt], env)
            check(r.returncode == 125 and r.stdout == "" and len(r.stderr.splitlines()) == 1
                  and what in r.stderr,
                  "-display %s: one-line usage error, status 125 (%d, %r)"
                  % (opt, r.returncode, r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % test_viewer.checks)
    return 1 if test_viewer.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
