#!/usr/bin/env python3
"""TPCs on host threads and the race report (docs/tpc-run.rst), as users run
nxemu-tpc-run (TAP).

usage: test_tpc_threads.py NXEMU_AS NXEMU_TPC_RUN KERNEL_SRC_DIR

Determinism: the same kernels on 1, 2, 4, 8 and 24 TPCs with --threads 1,
2 and 4 give the same output bytes, stderr (statistics line with vtime,
--stats bundles by tier, fault lines) and exit status.  Races: the expected lines are
worked out here from the kernels' sources and the tensor addresses given
with @ADDR, never taken from nxemu.
"""
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tempfile

NXAS, TPCRUN, KSRC = (os.path.abspath(a) for a in sys.argv[1:4])
results = []


def check(name, cond, diag=""):
    results.append((name, bool(cond), diag))


def run(args, cwd=None, timeout=120, env=None):
    return subprocess.run(args, capture_output=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, **env) if env else None)


# --stats: the host seconds are the one figure that may differ from run to
# run, and the pool's own line (threads=N stretches=P rerun=R) is there with
# more than one thread only
POOL = re.compile(rb"^nxemu-tpc-run: threads=(\d+) stretches=(\d+) rerun=(\d+)\n", re.M)


def norm(err):
    return POOL.sub(b"", re.sub(rb"host=[0-9.]+ s", b"host=T s", err))


def main():
    tmp = tempfile.mkdtemp(prefix="tpc-threads-")
    k = {}
    for name in ("add-f32", "fault-slm", "fault-late", "overlap-f32", "read-next-f32",
                 "overlap-rows-f32", "reread-f32", "race-overlap-i32", "race-read-i32",
                 "race-flag-i32", "race-vlm-i32", "race-walk-i32", "codew-i32"):
        o = os.path.join(tmp, name + ".o")
        p = run([NXAS, "-t", "tpc", "-o", o, os.path.join(KSRC, name + ".s")])
        check("assemble " + name, p.returncode == 0, p.stderr.decode())
        k[name] = o
    W, H = 1024, 48
    a = struct.pack("<%df" % (W * H), *[(i % 977) * 0.25 for i in range(W * H)])
    b = struct.pack("<%df" % (W * H), *[(i % 331) * -0.5 for i in range(W * H)])
    for n, d in (("a.bin", a), ("b.bin", b)):
        with open(os.path.join(tmp, n), "wb") as f:
            f.write(d)
    want = struct.pack("<%df" % (W * H), *[(i % 977) * 0.25 + (i % 331) * -0.5
                                           for i in range(W * H)])
    shape = "%dx%d" % (W, H)

    # add-f32: dim 0 = 16 vectors of 64 elements, dim 1 = 48 rows
    for ntpc in (1, 2, 4, 8, 24):
        ref = None
        for th in (1, 2, 4):
            out = os.path.join(tmp, "out-%d-%d.bin" % (ntpc, th))
            p = run([TPCRUN, "-k", k["add-f32"], "-n", str(ntpc), "--index-space", "16,48",
                     "-i", "a.bin:%s:f32" % shape, "-i", "b.bin:%s:f32" % shape,
                     "-o", out + ":%s:f32" % shape, "--threads", str(th), "--stats"], cwd=tmp)
            # (none when the run failed, a ThreadSanitizer report: its stderr shows)
            got = open(out, "rb").read() if os.path.exists(out) else b""
            res = (p.returncode, norm(p.stderr), got)
            if th == 1:
                check("add-f32 n=%d threads=1: sum right" % ntpc,
                      p.returncode == 0 and got == want, p.stderr.decode())
                ref = res
            else:
                check("add-f32 n=%d threads=%d: same status, stderr, output as 1 thread"
                      % (ntpc, th), res == ref,
                      "stderr 1: %r\nstderr %d: %r" % (ref[1], th, p.stderr))

    # a fault: same status, fault lines, vtime and per-TPC bundle counts for
    # every thread count (docs/machine.rst "Host threads": the others run to
    # the end of their stretch)
    ref = None
    for th in (1, 2, 4):
        p = run([TPCRUN, "-k", k["fault-slm"], "-n", "8", "--index-space", "8",
                 "--threads", str(th), "--stats"])
        err = norm(p.stderr).decode()
        if th == 1:
            check("fault-slm threads=1: faults", p.returncode == 139 and
                  err.startswith("nxemu: fault: tpc=0 code=SLM_RANGE(6)"), err)
            ref = (p.returncode, err)
        else:
            check("fault-slm threads=%d: same status, fault lines, counts as 1 thread" % th,
                  (p.returncode, err) == ref, "1 thread:\n%s\n%d threads:\n%s" % (ref[1], th, err))
    # fault-late: the TPC of index n/2 faults after 300 trips while the
    # others loop 5000 times, on 1..24 TPCs; and with the per-bundle log
    late = re.compile(r"^nxemu-tpc-run: tpc(\d+) bundles=(\d+) ", re.M)
    for ntpc in (1, 2, 4, 8, 24):
        ref = None
        for th in (1, 2, 4):
            args = [TPCRUN, "-k", k["fault-late"], "-n", str(ntpc), "--index-space", str(ntpc),
                    "--arg", str(ntpc // 2), "--threads", str(th), "--stats"]
            p = run(args, cwd=tmp)
            err = norm(p.stderr).decode()
            res = (p.returncode, err)
            if th == 1:
                # 308 bundles: 5 + the loop's 2 + 300 trips, stopped at ld_l
                counts = dict((int(t), int(b)) for t, b in late.findall(err))
                check("fault-late n=%d threads=1: tpc%d faults after 308 bundles"
                      % (ntpc, ntpc // 2), p.returncode == 139 and
                      ("nxemu: fault: tpc=%d code=SLM_RANGE(6)" % (ntpc // 2)) in err and
                      counts.get(ntpc // 2) == 308, err)
                ref = res
            else:
                check("fault-late n=%d threads=%d: same status, stderr, counts as 1 thread"
                      % (ntpc, th), res == ref,
                      "1 thread:\n%s\n%d threads:\n%s" % (ref[1], th, err))
    ref = None
    for th in (1, 2, 4):
        log = os.path.join(tmp, "exec-%d.log" % th)
        p = run([TPCRUN, "-k", k["fault-late"], "-n", "8", "--index-space", "8", "--arg", "4",
                 "--threads", str(th), "-d", "exec", "-D", log], cwd=tmp)
        with open(log, "rb") as f:
            res = (p.returncode, p.stderr, f.read())
        if th == 1:
            check("fault-late -d exec threads=1: faults, log written",
                  p.returncode == 139 and len(res[2]) > 0, p.stderr.decode())
            ref = res
        else:
            check("fault-late -d exec threads=%d: same log and stderr as 1 thread" % th,
                  res == ref, p.stderr.decode())

    # races: tensor 0 input at 0x4000000 (512 f32), tensor 1 output at 0x4100000
    data = struct.pack("<512f", *range(512))
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(data)
    base = 0x4100000

    def race_run(kern, th, extra=()):
        return run([TPCRUN, "-k", k[kern], "-n", "4", "--index-space", "4",
                    "-i", "in.bin:512:f32@0x4000000", "-o", "o.bin:512:f32@0x%x" % base,
                    "--threads", str(th)] + list(extra), cwd=tmp)

    # overlap-f32: TPC i stores 64 lanes at element 63 i (st_tnsr is bundle 4:
    # pc 0x80), so TPCs i and i+1 share element 63 (i+1): 4 bytes
    want_ov = "".join(
        "nxemu: warning: tpc race: tpc%d pc=0x00000080 and tpc%d pc=0x00000080 write "
        "[0x%x, +4) (tensor 1, coordinates %d)\n" % (i, i + 1, base + 4 * 63 * (i + 1),
                                                      63 * (i + 1)) for i in range(3))
    # read-next-f32: TPC i stores vector i (bundle 6, pc 0xc0) and loads vector
    # i+1 (bundle 7, pc 0xe0), which TPC i+1 stores: 256 bytes
    want_rn = "".join(
        "nxemu: warning: tpc race: tpc%d pc=0x000000e0 and tpc%d pc=0x000000c0 read and write "
        "[0x%x, +256) (tensor 1, coordinates %d)\n" % (i, i + 1, base + 256 * (i + 1),
                                                       64 * (i + 1)) for i in range(3))
    for kern, want_lines in (("overlap-f32", want_ov), ("read-next-f32", want_rn)):
        for th in (1, 2, 4):
            p = race_run(kern, th)
            err = p.stderr.decode()
            races = "".join(l + "\n" for l in err.splitlines() if "tpc race" in l)
            check("%s threads=%d: race report" % (kern, th),
                  p.returncode == 0 and races == want_lines, err)
        p = race_run(kern, 2, ["--race=fault"])
        check("%s --race=fault: exit 122" % kern, p.returncode == 122, p.stderr.decode())
        p = race_run(kern, 2, ["--race=off"])
        check("%s --race=off: no report" % kern,
              p.returncode == 0 and b"tpc race" not in p.stderr, p.stderr.decode())
    # overlap-rows-f32: TPC i copies rows 256 i + 256 down to 256 i (256
    # bytes each; st_tnsr is bundle 8: pc 0x100), so TPCs i and i+1 both
    # write row 256 (i+1), and each TPC's 514 accesses come out of address
    # order
    rows = struct.pack("<%df" % (64 * 1025), *range(64 * 1025))
    with open(os.path.join(tmp, "rows.bin"), "wb") as f:
        f.write(rows)
    want_rows = "".join(
        "nxemu: warning: tpc race: tpc%d pc=0x00000100 and tpc%d pc=0x00000100 write "
        "[0x%x, +256) (tensor 1, coordinates 0,%d)\n" % (i, i + 1, base + 256 * 256 * (i + 1),
                                                        256 * (i + 1)) for i in range(3))
    for th in (1, 2, 4):
        out = os.path.join(tmp, "rows-out.bin")
        p = run([TPCRUN, "-k", k["overlap-rows-f32"], "-n", "4", "--index-space", "4",
                 "-i", "rows.bin:64x1025:f32@0x4000000", "-o", out + ":64x1025:f32@0x%x" % base,
                 "--threads", str(th)], cwd=tmp)
        err = p.stderr.decode()
        races = "".join(l + "\n" for l in err.splitlines() if "tpc race" in l)
        got = open(out, "rb").read() if os.path.exists(out) else b""
        check("overlap-rows-f32 threads=%d: race report, rows copied" % th,
              p.returncode == 0 and races == want_rows and got == rows, err)
    # reread-f32: 4 TPCs read the same row 65536 times each from one PC (the
    # log keeps every read): no race, and the comparison stays far below the
    # 30 s it would take were it quadratic in the repeats (40 s of host CPU)
    row = struct.pack("<64f", *[i * 0.5 for i in range(64)])
    with open(os.path.join(tmp, "rr-in.bin"), "wb") as f:
        f.write(row)
    for th in (1, 2):
        out = os.path.join(tmp, "rr-out.bin")
        try:
            p = run([TPCRUN, "-k", k["reread-f32"], "-n", "4", "--index-space", "4",
                     "-i", "rr-in.bin:64x1:f32", "-o", out + ":64x4:f32", "--threads", str(th)],
                    cwd=tmp, timeout=30)
        except subprocess.TimeoutExpired:
            check("reread-f32 threads=%d: ends within 30 s" % th, False)
            continue
        got = open(out, "rb").read() if os.path.exists(out) else b""
        check("reread-f32 threads=%d: no race, rows copied" % th,
              p.returncode == 0 and b"tpc race" not in p.stderr and got == row * 4,
              p.stderr.decode())
    # the overlapping element: each TPC writes in[63 i .. 63 i + 63]; element
    # 63 (i+1) gets in[63 (i+1)] from both, so the bytes do not depend on order
    # race-free: add-f32 over disjoint rows reports nothing, even as a fault
    p = run([TPCRUN, "-k", k["add-f32"], "-n", "8", "--index-space", "16,48",
             "-i", "a.bin:%s:f32" % shape, "-i", "b.bin:%s:f32" % shape,
             "-o", os.path.join(tmp, "rf.bin") + ":%s:f32" % shape, "--threads", "2",
             "--race=fault"], cwd=tmp)
    check("add-f32 race-free: no report, exit 0",
          p.returncode == 0 and b"tpc race" not in p.stderr, p.stderr.decode())

    # The race lines do not depend on the execution tier: with every loop
    # body compiled (NXEMU_TPC_JIT=all, its tensor spans hoisted as the
    # loop plans hoist them) they and the bytes are those of the loop plans
    # (NXEMU_TPC_JIT=off).  race-walk-i32's stores race in hoisted trips.
    ins32 = struct.pack("<512i", *[7 * i for i in range(512)])
    with open(os.path.join(tmp, "jin32.bin"), "wb") as f:
        f.write(ins32)
    tiers = re.compile(rb"tpc0 bundles=\d+ direct=\d+ staged=\d+ loop=\d+ hoist=(\d+) ")
    for kern in ("race-walk-i32", "race-overlap-i32", "race-read-i32"):
        res = {}
        for jit in ("off", "all"):
            out = os.path.join(tmp, "jit-%s-%s.bin" % (kern, jit))
            p = subprocess.run([TPCRUN, "-k", k[kern], "-n", "4", "--index-space", "4",
                                "-i", "jin32.bin:512:i32@0x4000000",
                                "-o", out + ":1024:i32@0x%x" % base, "--arg", "300",
                                "--threads", "1", "--stats"], capture_output=True, timeout=120,
                               cwd=tmp, env=dict(os.environ, NXEMU_TPC_JIT=jit))
            races = [ln for ln in p.stderr.splitlines() if b"tpc race" in ln]
            got = open(out, "rb").read() if os.path.exists(out) else b""
            m = tiers.search(p.stderr)
            res[jit] = (p.returncode, races, got, m and int(m.group(1)),
                        b" jit=" in p.stderr)
        check("%s NXEMU_TPC_JIT=all: race lines and bytes as with it off" % kern,
              res["off"][0] == 0 and res["off"][1] and res["all"][:3] == res["off"][:3],
              "off: %r\nall: %r" % (res["off"][:2], res["all"][:2]))
        if kern == "race-walk-i32":
            check("%s NXEMU_TPC_JIT=all: compiled, spans hoisted" % kern,
                  res["all"][4] and res["all"][3], repr(res["all"][3:]))

    # Racing kernels give the 1-thread result for every thread count
    # (docs/machine.rst "Host threads"): the same output bytes, stderr (race
    # lines, statistics, --stats tiers) and status in 20 runs with 2 and 4
    # threads, and the pool says it ran their stretches again one TPC after
    # another.
    ins = struct.pack("<512i", *[7 * i for i in range(512)])
    with open(os.path.join(tmp, "in32.bin"), "wb") as f:
        f.write(ins)

    def det_run(kern, th, trips, extra=(), env=None):
        out = os.path.join(tmp, "det-%s-%d.bin" % (kern, th))
        p = run([TPCRUN, "-k", k[kern], "-n", "4", "--index-space", "4",
                 "-i", "in32.bin:512:i32@0x4000000", "-o", out + ":512:i32@0x%x" % base,
                 "--arg", str(trips), "--threads", str(th), "--stats"] + list(extra), cwd=tmp,
                env=env)
        got = open(out, "rb").read() if os.path.exists(out) else b""
        pool = POOL.search(p.stderr)
        return (p.returncode, norm(p.stderr), got), pool

    # race-overlap-i32, 300 trips: TPC i's last store is in[j] + 299 + i at
    # elements j = 63 i .. 63 i + 63; one after another, TPC i + 1 stores
    # its shared element last
    want = [0] * 512
    for j in range(63 * 3 + 64):
        want[j] = 7 * j + 299 + min(j // 63, 3)
    # race-vlm-i32 keeps a sum of what it read in VLM across trips: a rerun
    # must start from the VLM of the stretch's start.  race-read-i32 with
    # the compiler on every body (NXEMU_TPC_JIT=all): its bodies' calls of
    # the direct path (--stats "jit=... called:") count the rerun, not the
    # trip that was thrown away.
    jit_all = {"NXEMU_TPC_JIT": "all"}
    # (the compiler's stencils are x86-64 AVX2/FMA code: elsewhere no body
    # is compiled, and the case is one more racing kernel)
    with open("/proc/cpuinfo") as f:
        flags = set(re.findall(r"\w+", f.read()))
    jit_host = platform.machine() == "x86_64" and {"avx2", "fma"} <= flags
    for kern, trips, env in (("race-overlap-i32", 300, None), ("race-read-i32", 500, None),
                             ("race-flag-i32", 3000, None), ("race-vlm-i32", 500, None),
                             ("race-read-i32", 500, jit_all)):
        ref, _ = det_run(kern, 1, trips, env=env)
        name = kern + (" (NXEMU_TPC_JIT=all)" if env else "")
        vals = struct.unpack("<512i", ref[2]) if len(ref[2]) == 2048 else ()
        if kern == "race-overlap-i32":
            check("%s threads=1: TPC i + 1 stores the shared element last" % kern,
                  ref[0] == 0 and list(vals) == want, ref[1].decode())
        elif kern == "race-flag-i32":
            # the flag is set, and TPC 0 left its loop on it, not at its end
            check("%s threads=1: flag set, seen after 0 < trips < 1000000" % kern,
                  ref[0] == 0 and len(vals) and vals[0] == 1 and 0 < vals[1] < 1000000,
                  ref[1].decode())
        elif env and jit_host:
            check("%s threads=1: runs, races reported, compiled bodies call steps" % name,
                  ref[0] == 0 and b"tpc race" in ref[1] and
                  re.search(rb"jit=[1-9][0-9]* called: vpu.add=[1-9]", ref[1]), ref[1].decode())
        else:
            check("%s threads=1: runs, races reported" % kern,
                  ref[0] == 0 and b"tpc race" in ref[1], ref[1].decode())
        for th in (2, 4):
            bad, reruns = [], 0
            for i in range(20):
                res, pool = det_run(kern, th, trips, env=env)
                if res != ref:
                    bad.append("run %d: status %d\n%s" % (i, res[0], res[1].decode()))
                reruns += int(pool.group(3)) if pool else 0
            check("%s threads=%d: 20 runs give the 1-thread bytes, stderr, status"
                  % (name, th), not bad,
                  "1 thread: status %d\n%s\n%s" % (ref[0], ref[1].decode(), "".join(bad[:2])))
            check("%s threads=%d: stretches rerun serially" % (name, th), reruns > 0,
                  "no stretch rerun")
    # codew-i32, 20000 trips: TPC 3 stores into the bundle that all four
    # TPCs run in their loop (docs/machine.rst "Host threads"); code fetches
    # are in no access log, so only the check of writes against the
    # kernel's bytes sees it.  By hand from the ISA: the writer's trips add
    # 2, 1, 2, 1, ... (the store lands two bundles before the bundle runs):
    # 30000.  The readers' sums depend on when they fetch: the 1-thread
    # run's, bytes, stderr and status, for every thread count.
    ref, _ = det_run("codew-i32", 1, 20000, ["--arg", "3"])
    vals = struct.unpack("<4i", ref[2][:16]) if len(ref[2]) == 2048 else ()
    check("codew-i32 threads=1: the writer's sum, no race reported",
          ref[0] == 0 and len(vals) and vals[3] == 30000 and b"tpc race" not in ref[1],
          "%r\n%s" % (vals, ref[1].decode()))
    for th in (2, 4):
        bad, reruns = [], 0
        for i in range(20):
            res, pool = det_run("codew-i32", th, 20000, ["--arg", "3"])
            if res != ref:
                bad.append("run %d: status %d %r\n%s" % (i, res[0], struct.unpack(
                    "<4i", res[2][:16]) if len(res[2]) >= 16 else (), res[1].decode()))
            reruns += int(pool.group(3)) if pool else 0
        check("codew-i32 threads=%d: 20 runs give the 1-thread bytes, stderr, status" % th,
              not bad, "1 thread: %r\n%s" % (vals, "".join(bad[:2])))
        check("codew-i32 threads=%d: stretches rerun serially" % th, reruns > 0,
              "no stretch rerun")
    # with --race=off the stretches log their accesses all the same
    ref, _ = det_run("race-read-i32", 1, 500, ["--race=off"])
    bad = 0
    for i in range(10):
        res, pool = det_run("race-read-i32", 2, 500, ["--race=off"])
        bad += res != ref or not pool or pool.group(3) == b"0"
    check("race-read-i32 --race=off threads=2: 10 runs give the 1-thread bytes, rerun",
          ref[0] == 0 and b"tpc race" not in ref[1] and bad == 0, "%d runs differ" % bad)
    # the race-free kernel's stretches keep running in parallel
    p = run([TPCRUN, "-k", k["add-f32"], "-n", "8", "--index-space", "16,48",
             "-i", "a.bin:%s:f32" % shape, "-i", "b.bin:%s:f32" % shape,
             "-o", os.path.join(tmp, "rf.bin") + ":%s:f32" % shape, "--threads", "2",
             "--stats"], cwd=tmp)
    pool = POOL.search(p.stderr)
    check("add-f32 threads=2: stretches in parallel, none rerun",
          p.returncode == 0 and pool and int(pool.group(2)) > 0 and pool.group(3) == b"0",
          p.stderr.decode())

    shutil.rmtree(tmp)
    print("1..%d" % len(results))
    for i, (name, ok, diag) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok and diag:
            for line in diag.splitlines()[:20]:
                print("# " + line)
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
