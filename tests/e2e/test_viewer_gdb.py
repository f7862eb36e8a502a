#!/usr/bin/env python3
"""The SDL viewer while gdb drives the run, and in nxemu-tpc-run (docs/viewer.rst).

    test_viewer_gdb.py NXEMU VIEWER_SBUF_ELF NXEMU_TPC_RUN TPC4_KERNEL_O
                       VIEWER_TIME_ELF VIEWER_TIME_KERNEL_O VIEWER_SPIN_ELF

Offscreen SDL (SDL_VIDEODRIVER=offscreen), gdb-multiarch in batch mode over
-gdb unix:PATH -S, as users run it:

* stepping: `monitor screendump` writes what the window shows (the frame
  last drawn), so a dump after each stepi shows the step only if the stub
  redrew the window at the stop.  viewer-sbuf.s writes SBUF partition 3
  (first instruction), then 70 (second), then the test device: the three
  dumps show no partition, then 3, then 3 and 70.
* a gdb memory write while stopped: the data view (data=sbuf:0+16, i32) of
  SBUF partition 0 reads 0..0 before and 0..44 after `set {int}0x2000000000
  = 44` (partition 0's PA, identity-mapped), without any step between.
* a breakpoint at the second instruction, continue, continue to the end:
  -screendump-at-exit's PNG exists when gdb hears of the end (gdb's `shell`
  looks while nxemu still serves gdb) and shows the final state exactly as
  the run without gdb does (test_viewer.check_picture: both marks of at
  least 40 pixels, header vtime=3 ENDED FINISHER icount=3: same vtime).
* nxemu-tpc-run --display sdl,zoom=1 --screendump-at-exit on four TPCs with
  viewer-tpc4.tpc.s (-tpc-timing interlocked, gmem latency 200): the
  timeline has one kernel bar per TPC whose width is the kernel's cycles
  (the tool's own cycles= / 4) scaled to the strip (576 columns for the
  run's vtime=, from the tool's stderr), and the vtime is the one of the
  run without --display.
* same timing: viewer-time.s (two sequencers, DMA, a TPC kernel) under gdb
  with a breakpoint, two stepi and continue ends at the vtime of the run
  without gdb, and its -screendump-at-exit timeline strip is the same
  picture, pixel for pixel, as the one without gdb.
* refresh while running, under Xvfb (-fbdir: the X screen as a file, read
  live): viewer-spin.s writes partition 3 and spins; stopped at connect
  the window shows no mark, and 1 s after gdb's continue (the machine
  still running) the screen shows partition 3's mark, which only a
  refresh between rounds can draw.
Exit 77 (skip) without SDL or gdb-multiarch.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gdb"))
from test_viewer import (check, check_picture, lsan_suppress, read_png, read_text,  # noqa: E402
                         write_tinted, IDLE, SBUF_X, SBUF_Y, SBUF_W, PART_H)
import test_viewer  # noqa: E402
from test_viewer_panels import runs, KERNEL, TL_X, TL_Y, TL_ROW_H, TL_ROWS, TL_W  # noqa: E402
from gdbclient import Stub  # noqa: E402

# These sessions drive the per-core-process model (-gdb DEV,cores=processes,
# docs/gdb.rst): each core its own gdb process, attached one by one.
Stub.CORES = 'processes'

GDB = shutil.which("gdb-multiarch")


def marks(rows):
    """SBUF partitions with write-tinted pixels, and how many each."""
    out = {}
    for p in range(128):
        n = sum(1 for dy in (0, 1) for x in range(SBUF_W)
                if write_tinted(rows[SBUF_Y + PART_H * p + dy][SBUF_X + x]))
        if n:
            out[p] = n
    return out


def gdb_batch(nxemu, args, cmds, timeout=60):
    st = Stub(nxemu, args)
    st.wait_listening()
    argv = [GDB, "-nx", "-batch", "-ex", "set pagination off",
            "-ex", "target extended-remote %s" % st.path]
    for c in cmds:
        argv += ["-ex", c]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        st.kill()
        return "gdb hung", -1, ""
    rc = st.wait(timeout=30)
    return p.stdout + p.stderr, rc, st.stderr.decode(errors="replace")


def stepping(nxemu, image, tmp):
    dumps = [os.path.join(tmp, "step%d.png" % i) for i in range(3)]
    out, rc, err = gdb_batch(nxemu, ["-display", "sdl", "-kernel", image], [
        "monitor screendump " + dumps[0], "stepi",
        "monitor screendump " + dumps[1], "stepi",
        "monitor screendump " + dumps[2], "kill"])
    check(rc == 0, "stepping: nxemu ends with status 0 after kill (%d, %r)" % (rc, err[-300:]))
    seen = []
    for i, path in enumerate(dumps):
        try:
            w, h, rows = read_png(path)
        except (OSError, ValueError) as e:
            check(False, "stepping: dump %d readable (%s; gdb said %r)" % (i, e, out[-400:]))
            return
        seen.append(marks(rows))
        head = read_text(rows, 8, 6, 60)
        check("STOPPED (gdb)" in head, "stepping: dump %d's header says gdb holds the machine "
              "(%r)" % (i, head))
    check(seen[0] == {}, "stepping: before any step no SBUF partition is marked (%r)" % seen[0])
    check(set(seen[1]) == {3} and seen[1][3] >= 40,
          "stepping: after stepi 1 partition 3 is marked, 70 not yet (%r)" % seen[1])
    check(set(seen[2]) == {3, 70} and min(seen[2].values()) >= 40,
          "stepping: after stepi 2 partitions 3 and 70 are marked (%r)" % seen[2])


def debugger_write(nxemu, image, tmp):
    a, b = os.path.join(tmp, "w0.png"), os.path.join(tmp, "w1.png")
    out, rc, err = gdb_batch(nxemu, ["-display", "sdl,data=sbuf:0+16,dtype=i32",
                                     "-kernel", image], [
        "monitor screendump " + a, "set {int}0x2000000000 = 44",
        "monitor screendump " + b, "kill"])
    heads = []
    for path in (a, b):
        try:
            heads.append(read_text(read_png(path)[2], 880, 470, 50))
        except (OSError, ValueError) as e:
            check(False, "write: dump readable (%s; %r)" % (e, out[-300:]))
            return
    check(heads == ["data sbuf p0-0 @0x00000 x4 i32 gray 0..0",
                    "data sbuf p0-0 @0x00000 x4 i32 gray 0..44"],
          "write: the data view shows gdb's write at once (%r)" % heads)


def to_the_end(nxemu, image, tmp):
    shot = os.path.join(tmp, "end.png")
    out, rc, err = gdb_batch(nxemu, ["-display", "sdl", "-screendump-at-exit", shot,
                                     "-kernel", image], [
        "break *0x1000040", "continue", "monitor screendump " + os.path.join(tmp, "bp.png"),
        "continue", "shell test -s %s && echo PNG-AT-END" % shot])
    check("exited normally" in out, "end: gdb sees the run end normally (%r)" % out[-300:])
    check("PNG-AT-END" in out,
          "end: -screendump-at-exit's PNG exists when the end is reported to gdb")
    check(rc == 0, "end: nxemu exits with the run's status 0 (%d, %r)" % (rc, err[-300:]))
    # the breakpoint stop is drawn: partition 3 written, 70 not yet
    try:
        rows = read_png(os.path.join(tmp, "bp.png"))[2]
        check(set(marks(rows)) == {3}, "end: at the breakpoint only partition 3 is marked")
    except (OSError, ValueError) as e:
        check(False, "end: breakpoint dump readable (%s)" % e)
    check_picture(shot, "gdb -screendump-at-exit")


def tpc_run(tool, kernel, tmp):
    inp, outp = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
    with open(inp, "wb") as f:
        f.write(bytes(256))
    base = [tool, "-k", kernel, "-n", "4", "--index-space", "4",
            "-i", inp + ":64:i32", "-o", outp + ":64:i32",
            "--tpc-timing", "interlocked", "-M", "gmem-latency=200"]
    plain = subprocess.run(base, capture_output=True, text=True, timeout=60)
    shot = os.path.join(tmp, "tpc.png")
    # zoom=1: the bars below are measured on the timeline from vtime 0
    r = subprocess.run(base + ["--display", "sdl,zoom=1", "--screendump-at-exit", shot],
                       capture_output=True, text=True, timeout=60)

    def figures(stderr):
        m = re.search(r"tpcs=4 bundles=\d+ cycles=(\d+) vtime=(\d+)", stderr)
        return (int(m.group(1)), int(m.group(2))) if m else None
    fp, fr = figures(plain.stderr), figures(r.stderr)
    check(r.returncode == 0 and plain.returncode == 0 and fr and fr == fp,
          "tpc-run: --display changes neither status nor cycles nor vtime (%r, %r)" % (fp, fr))
    if not fr:
        return
    cycles, vtime = fr
    per = cycles / 4
    try:
        rows = read_png(shot)[2]
    except (OSError, ValueError) as e:
        check(False, "tpc-run: screenshot readable (%s)" % e)
        return
    head = read_text(rows, 8, 6, 60)
    check("vtime=%d " % vtime in head and "ENDED FINISHER status=0" in head,
          "tpc-run: header reads the run's end (%r)" % head)
    names = {read_text(rows, TL_X, TL_Y + TL_ROW_H * i, 6): TL_Y + TL_ROW_H * i
             for i in range(TL_ROWS)}
    for t in range(4):
        y = names.get("tpc%d" % t)
        bars = runs(rows, y, KERNEL) if y else []
        want = per * TL_W / vtime
        check(len(bars) == 1 and abs(bars[0][1] - want) <= 1,
              "tpc-run: tpc%d has one kernel bar of %.1f columns (%g cycles of %d): %r"
              % (t, want, per, vtime, bars))
    r = subprocess.run([tool, "-k", kernel, "--index-space", "1", "--screendump-at-exit", shot],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 125 and r.stderr.strip() ==
          "nxemu-tpc-run: --screendump-at-exit: needs --display sdl",
          "tpc-run: --screendump-at-exit without --display is a one-line usage error (%r)"
          % r.stderr)


def same_timing(nxemu, elf, ko, tmp):
    base = ["-smp", "seq=2", "-device", "loader,file=%s" % elf,
            "-device", "loader,file=%s,cpu-num=1" % elf,
            "-device", "loader,file=%s,addr=0x100000,tpc-num=0" % ko, "-display", "sdl"]
    plain, dbg = os.path.join(tmp, "time-plain.png"), os.path.join(tmp, "time-gdb.png")
    r = subprocess.run([nxemu] + base + ["-screendump-at-exit", plain], capture_output=True,
                       text=True, timeout=60)
    out, rc, err = gdb_batch(nxemu, base + ["-screendump-at-exit", dbg], [
        "break *0x1000080", "continue", "stepi", "stepi", "continue"])
    check(r.returncode == 0 and rc == 0 and "exited normally" in out,
          "timing: both runs pass (%d, %d, %r)" % (r.returncode, rc, out[-200:]))
    try:
        a, b = read_png(plain)[2], read_png(dbg)[2]
    except (OSError, ValueError) as e:
        check(False, "timing: both screenshots readable (%s)" % e)
        return
    ha, hb = read_text(a, 8, 6, 80), read_text(b, 8, 6, 80)
    va = re.search(r"vtime=(\d+) ", ha)
    check(va and va.group(1) != "0" and ("vtime=%s " % va.group(1)) in hb
          and "ENDED FINISHER" in hb,
          "timing: the debugged run ends at the same vtime (%r / %r)" % (ha, hb))
    strip = [row[:640] for row in a[TL_Y - 12:TL_Y + TL_ROW_H * TL_ROWS]]
    check(strip == [row[:640] for row in b[TL_Y - 12:TL_Y + TL_ROW_H * TL_ROWS]],
          "timing: the timeline strip is the same picture with and without gdb")


def xwd_screen(path):
    """Xvfb's -fbdir screen file (XWD, 32 bits a pixel) -> pixel(x, y) -> (r, g, b)."""
    d = open(path, "rb").read()
    f = struct.unpack(">25I", d[:100])
    hsize, order, bpl, ncolors = f[0], f[7], f[12], f[19]
    data = d[hsize + 12 * ncolors:]

    def pixel(x, y):
        i = y * bpl + 4 * x
        p = data[i:i + 4] if order == 0 else data[i:i + 4][::-1]
        return (p[2], p[1], p[0])
    return f[4], f[5], pixel


def screen_marks(path):
    """Partition -> write-tinted pixels of the window on the X screen, found
    by the SBUF map's focus frame (0xA0A0FF at frame (7, 31))."""
    w, h, pixel = xwd_screen(path)
    for y in range(h):
        xs = [x for x in range(0, w) if pixel(x, y) == (0xA0, 0xA0, 0xFF)]
        if xs:
            ox, oy = xs[0] - (SBUF_X - 1), y - (SBUF_Y - 1)
            break
    else:
        return None
    out = {}
    for p in range(128):
        n = sum(1 for dy in (0, 1) for x in range(SBUF_W)
                if write_tinted(pixel(ox + SBUF_X + x, oy + SBUF_Y + PART_H * p + dy)))
        if n:
            out[p] = n
    return out


def running_refresh(nxemu, spin, tmp):
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        print("# Xvfb not installed: refresh while running not checked")
        return
    fbdir = os.path.join(tmp, "fb")
    os.mkdir(fbdir)
    rfd, wfd = os.pipe()
    x = subprocess.Popen([xvfb, "-displayfd", str(wfd), "-screen", "0", "1600x900x24",
                          "-fbdir", fbdir, "-nolisten", "tcp"], pass_fds=(wfd,),
                         stderr=subprocess.DEVNULL)
    os.close(wfd)
    st = None
    try:
        disp = os.read(rfd, 32).decode().strip()
        env_save = dict(os.environ)
        os.environ.pop("SDL_VIDEODRIVER", None)
        os.environ["DISPLAY"] = ":" + disp
        try:
            st = Stub(nxemu, ["-display", "sdl", "-kernel", spin])
            c = st.connect()
        finally:
            os.environ.clear()
            os.environ.update(env_save)
        screen = os.path.join(fbdir, "Xvfb_screen0")
        time.sleep(0.5)
        before = screen_marks(screen)
        c.send(b"c")
        time.sleep(1.0)
        during = screen_marks(screen)
        c.send_raw(b"\x03")
        stop = c.reply()
        c.send(b"k")
        rc = st.wait(timeout=30)
        st = None
        check(before == {}, "running: stopped at connect, the X screen shows no mark (%r)"
              % before)
        check(during is not None and set(during) == {3} and during[3] >= 40,
              "running: 1 s into gdb's continue the X screen shows partition 3's mark (%r)"
              % during)
        check(stop.startswith(b"T02") and rc == 0,
              "running: Ctrl-C stops it (%r), kill ends nxemu (%d)" % (stop, rc))
    finally:
        if st:
            st.kill()
        x.terminate()
        x.wait(timeout=10)
        os.close(rfd)


def main(argv):
    nxemu, image, tool, kernel, time_elf, time_ko, spin = argv[1:8]
    tmp = tempfile.mkdtemp(prefix="nxemu-viewer-gdb-")
    lsan_suppress(tmp)
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    try:
        r = subprocess.run([nxemu, "-display", "sdl", "-screendump-at-exit",
                            os.path.join(tmp, "probe.png"), "-kernel", image],
                           capture_output=True, text=True, timeout=60)
        if r.returncode == 125 and "without SDL" in r.stderr:
            print("# SKIP: " + r.stderr.strip())
            return 77
        tpc_run(tool, kernel, tmp)
        if not GDB:
            print("# gdb-multiarch not installed: the gdb cases are not run")
        else:
            stepping(nxemu, image, tmp)
            debugger_write(nxemu, image, tmp)
            to_the_end(nxemu, image, tmp)
            same_timing(nxemu, time_elf, time_ko, tmp)
        running_refresh(nxemu, spin, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % test_viewer.checks)
    return 1 if test_viewer.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
