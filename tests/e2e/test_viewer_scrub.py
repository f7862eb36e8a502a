#!/usr/bin/env python3
"""End-to-end test of the viewer's time cursor (docs/viewer.rst "Time cursor").

    test_viewer_scrub.py NXEMU VIEWER_SCRUB_ELF

tests/e2e/viewer-scrub.s writes SBUF partition 3 at vtime 0, waits 1056
cycles for a DMA that touches only HBM, then writes partition 70.  With
-display sdl,scrub=T and -screendump-at-exit the picture must show the
accesses made up to T: at T = 500 only partition 3 (in the map and the
access-count table), at the run's end both; the timeline's cursor line is at
column 56 + T * 576 // end (docs/viewer.rst "Frame layout"), and the header
says "scrub vtime=T".  The end vtime comes from -d stats of a plain run.
Exit 77 (skip) when nxemu was built without SDL.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_viewer as tv  # noqa: E402  (PNG reader, font, colours)

SBUF_X, SBUF_Y, SBUF_W, PART_H = tv.SBUF_X, tv.SBUF_Y, tv.SBUF_W, tv.PART_H
TL_BAR_X, TL_W, TL_Y, TL_ROW_H = 56, 576, 512, 10
TABLE_X, TABLE_Y = 652, 466 + 12
CURSOR = (0xFF, 0xFF, 0xFF)

failures = 0
checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    print(("ok %d - " if ok else "not ok %d - ") % checks + what)
    if not ok:
        failures += 1
    return ok


def marked(rows, p):
    """Write-tinted pixels in partition p's two rows of cells."""
    return sum(1 for dy in (0, 1) for x in range(SBUF_W)
               if tv.write_tinted(rows[SBUF_Y + PART_H * p + dy][SBUF_X + x]))


def idle(rows, p):
    return all(rows[SBUF_Y + PART_H * p + dy][SBUF_X + x] == tv.IDLE
               for dy in (0, 1) for x in range(SBUF_W))


def cursor_cols(rows):
    """Columns of the timeline strip white on the gap row between the first
    two bars (y = TL_Y + 8: no bar is drawn there)."""
    y = TL_Y + 8
    return [x for x in range(TL_BAR_X, TL_BAR_X + TL_W + 1) if rows[y][x] == CURSOR]


def shot(nxemu, image, tmp, display, name):
    path = os.path.join(tmp, name + ".png")
    r = subprocess.run([nxemu, "-display", display, "-screendump-at-exit", path, "-kernel", image],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
    if r.returncode == 125 and "without SDL" in r.stderr:
        return None, r
    check(r.returncode == 0, "%s: run passes (status %d, %s)" % (name, r.returncode,
                                                                 r.stderr.strip()))
    try:
        w, h, rows = tv.read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        check(False, "%s: screenshot readable (%s)" % (name, e))
        return [], r
    return rows, r


def scrub_tests(nxemu, image):
    tmp = tempfile.mkdtemp(prefix="nxemu-scrub-")
    tv.lsan_suppress(tmp)
    try:
        r = subprocess.run([nxemu, "-d", "stats", "-kernel", image], capture_output=True,
                           text=True, timeout=60)
        m = re.search(r"run vtime=(\d+)", r.stderr)
        if not check(r.returncode == 0 and m, "plain run: -d stats gives the end vtime"):
            return 1
        end = int(m.group(1))
        # the second write comes after the 1056-cycle DMA wait
        check(end > 1056, "the run lasts past the DMA (end vtime %d)" % end)

        rows, r = shot(nxemu, image, tmp, "sdl", "now")
        if rows is None:
            print("# SKIP: " + r.stderr.strip())
            return 77
        if rows:
            check(marked(rows, 3) >= 40 and marked(rows, 70) >= 40,
                  "no cursor: partitions 3 and 70 marked (%d, %d px)"
                  % (marked(rows, 3), marked(rows, 70)))
            check("scrub" not in tv.read_text(rows, 8, 6, 120), "no cursor: header has no scrub")
            check(cursor_cols(rows) == [], "no cursor: no cursor line on the timeline")

        for t, want in ((500, {3}), (end, {3, 70})):
            name = "scrub=%d" % t
            rows, r = shot(nxemu, image, tmp, "sdl,scrub=%d" % t, "scrub-%d" % t)
            if not rows:
                continue
            for p in (3, 70):
                if p in want:
                    check(marked(rows, p) >= 40, "%s: partition %d marked (%d px)"
                          % (name, p, marked(rows, p)))
                else:
                    check(idle(rows, p), "%s: partition %d not marked (written later)" % (name, p))
            others = [p for p in range(128) if p not in (3, 70) and not idle(rows, p)]
            check(others == [], "%s: no other partition marked (%r)" % (name, others))
            head = tv.read_text(rows, 8, 6, 120)
            check(("scrub vtime=%d" % t) in head, "%s: header says scrub vtime=%d (%r)"
                  % (name, t, head))
            table = [tv.read_text(rows, TABLE_X, TABLE_Y + i * tv.LINE_H, 30) for i in range(3)]
            listed = [int(x.split()[0][1:]) for x in table if x.startswith("p")]
            check(listed == sorted(want), "%s: count table lists partitions %r (%r)"
                  % (name, sorted(want), table))
            x = TL_BAR_X + t * TL_W // end
            check(cursor_cols(rows) == [x], "%s: cursor line at column %d only (%r)"
                  % (name, x, cursor_cols(rows)))

        r = subprocess.run([nxemu, "-display", "sdl,scrub=soon", "-kernel", image],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 125 and r.stderr.count("\n") == 1 and "scrub" in r.stderr,
              "scrub=soon: one-line usage error, status 125 (%d, %r)" % (r.returncode, r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def main(argv):
    if len(argv) != 3:
        print("usage: test_viewer_scrub.py NXEMU IMAGE", file=sys.stderr)
        return 2
    rc = scrub_tests(argv[1], argv[2])
    if rc:
        return rc
    print("1..%d" % checks)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
