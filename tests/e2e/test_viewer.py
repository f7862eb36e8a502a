#!/usr/bin/env python3
"""End-to-end tests of the SDL memory viewer and of poison mode (docs/viewer.rst).

    test_viewer.py NXEMU VIEWER_SBUF_ELF          the viewer, offscreen and under Xvfb
    test_viewer.py --poison NXEMU POISON_ELF      -machine poison=on

The viewer test runs tests/e2e/viewer-sbuf.s (it writes SBUF partitions 3
and 70 and nothing else in SBUF/PSUM) through a real SDL window with
-screendump-at-exit, reads the PNG with the minimal reader below and checks
the picture against the documented frame layout: the two written partitions
are highlighted, the 126 others and every PSUM bank are not.
Exit 77 (skip) when nxemu was built without SDL.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

# Frame layout and colours, from docs/viewer.rst ("Frame layout").
FRAME_W, FRAME_H = 1280, 720
SBUF_X, SBUF_Y, SBUF_W, PART_H = 8, 32, 384, 3
PSUM_X, BANK_W = 404, 8
TEXT_X, LINE_H = 880, 9
IDLE = (0x20, 0x20, 0x20)
WRITTEN_PARTITIONS = {3, 70}

failures = 0
checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    print(("ok %d - " if ok else "not ok %d - ") % checks + what)
    if not ok:
        failures += 1
    return ok


def read_png(path):
    """8-bit RGB, non-interlaced PNG -> (w, h, rows of (r, g, b) tuples)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG signature")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) != crc:
            raise ValueError("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 2, 0):
                raise ValueError("unsupported PNG format %r" % ((depth, ctype, interlace),))
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride, rows, prev = 1 + 3 * w, [], bytearray(3 * w)
    for y in range(h):
        line = raw[y * stride:(y + 1) * stride]
        ftype, cur = line[0], bytearray(line[1:])
        for i in range(len(cur)):  # the five PNG filters, in case a writer uses them
            a = cur[i - 3] if i >= 3 else 0
            b, c = prev[i], (prev[i - 3] if i >= 3 else 0)
            if ftype == 1:
                cur[i] = (cur[i] + a) & 255
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 255
            elif ftype == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (cur[i] + pred) & 255
        rows.append([tuple(cur[3 * x:3 * x + 3]) for x in range(w)])
        prev = cur
    return w, h, rows


def load_font():
    """The viewer's 5x7 font (hw/display/viewer-font.c): column bitmaps -> char."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hw", "display",
                       "viewer-font.c")
    glyphs = re.findall(r"\{(0x[0-9A-Fa-f]{2}(?:, 0x[0-9A-Fa-f]{2}){4})\}", open(src).read())
    table = {}
    for i, g in enumerate(glyphs[:95]):
        table.setdefault(tuple(int(v, 16) for v in g.split(", ")), chr(0x20 + i))
    return table


FONT = load_font()
CHAR_W = 6


def read_text(rows, x, y, n):
    """The n characters drawn with the viewer's font from (x, y) (top left),
    any colour on the black background; '?' for a cell that is no glyph."""
    out = []
    for k in range(n):
        cols = []
        for c in range(5):
            bits = 0
            for r in range(7):
                if rows[y + r][x + k * CHAR_W + c] != (0, 0, 0):
                    bits |= 1 << r
            cols.append(bits)
        out.append(FONT.get(tuple(cols), "?"))
    return "".join(out).rstrip()


def write_tinted(px):
    """A write highlight: red from 0x40 up, no read tint (green stays 0x20)."""
    r, g, b = px
    return r >= 0x40 and g == 0x20 and b == 0x20


# A written partition's mark: at least this many write-tinted pixels in its
# two rows, however small the write (docs/viewer.rst "Colours").
MIN_MARK_PIXELS = 40


def check_picture(path, label, min_mark=MIN_MARK_PIXELS):
    try:
        w, h, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        check(False, "%s: screenshot readable (%s)" % (label, e))
        return None
    check((w, h) == (FRAME_W, FRAME_H), "%s: screenshot is %dx%d" % (label, w, h))
    for p in range(128):
        # Rows 0 and 1 of a partition carry its cells (row 2 is a separator).
        pix = [rows[SBUF_Y + PART_H * p + dy][SBUF_X + x] for dy in (0, 1) for x in range(SBUF_W)]
        if p in WRITTEN_PARTITIONS:
            # The image writes 16 bytes at offset 0: column 0 shows offset 0.
            check(write_tinted(rows[SBUF_Y + PART_H * p][SBUF_X]),
                  "%s: SBUF partition %d offset 0 highlighted as written" % (label, p))
            check(all(px == IDLE or write_tinted(px) for px in pix),
                  "%s: SBUF partition %d shows no reads" % (label, p))
            lit = sum(1 for px in pix if write_tinted(px))
            check(lit >= min_mark, "%s: SBUF partition %d's mark is %d pixels (at least %d)"
                  % (label, p, lit, min_mark))
        elif any(px != IDLE for px in pix):
            check(False, "%s: SBUF partition %d not highlighted" % (label, p))
    check(True, "%s: the 126 other SBUF partitions are not highlighted" % label)
    psum = [rows[SBUF_Y + PART_H * p][PSUM_X + BANK_W * b] for p in range(128) for b in range(8)]
    check(all(px == IDLE for px in psum), "%s: no PSUM bank highlighted" % label)
    # The header and the cores panel report the run's end as -d stats does:
    # three one-cycle instructions, the test device's write ends the run.
    head = read_text(rows, 8, 6, 80)
    check("vtime=3 " in head and "ENDED FINISHER status=0" in head and "icount=3 " in head,
          "%s: header reads the end vtime, reason and icount (%r)" % (label, head))
    core = read_text(rows, TEXT_X, SBUF_Y, 40)
    check(core.startswith("seq0  ENDED ") and "ret=3" in core,
          "%s: cores panel says seq0 ENDED (%r)" % (label, core))
    tpc = read_text(rows, TEXT_X, SBUF_Y + LINE_H, 40)
    check(tpc.startswith("tpc0  IDLE "), "%s: cores panel says tpc0 IDLE (%r)" % (label, tpc))
    # #41: a picture of the end has no "hover a cell" hint (nobody can hover
    # in a PNG), and its legend shows every colour a cell can have: the
    # write/read mixes with unequal counts (orange, lime) too
    bottom_y = SBUF_Y + 128 * PART_H + 10
    hint = read_text(rows, SBUF_X, bottom_y, 40)
    check(hint == "", "%s: no hover hint under the maps (%r)" % (label, hint))
    legend = rows[bottom_y + 12 + 3]
    colours = {px for px in legend if px != (0, 0, 0)}
    for name, rgb in (("write", (0xFF, 0x20, 0x20)), ("read", (0x20, 0xFF, 0x20)),
                      ("both", (0xFF, 0xFF, 0x20)), ("more writes", (0xFF, 0x80, 0x20)),
                      ("more reads", (0x80, 0xFF, 0x20))):
        check(rgb in colours, "%s: the legend has the %s colour %r" % (label, name, rgb))
    return rows


def run(cmd, env=None, timeout=60):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def lsan_suppress(tmp):
    """Sanitizer builds: SDL 2.26 opens a D-Bus connection under X11 and never
    shuts libdbus down; that library's own allocation is not ours to fix."""
    supp = os.path.join(tmp, "lsan.supp")
    with open(supp, "w") as f:
        f.write("leak:libdbus-1.so\n")
    opts = os.environ.get("LSAN_OPTIONS", "")
    os.environ["LSAN_OPTIONS"] = (opts + ":" if opts else "") + \
        "suppressions=%s:print_suppressions=0" % supp


def font_tests():
    # #41: every glyph reads as itself: 95 distinct bitmaps, no two closer than
    # two pixels (I/l and !/| were one apart), and q has its tail so that it is
    # not read as 9 or g (their bottom rows are rounded)
    glyphs = [k for k in FONT]
    check(len(glyphs) == 95, "font: 95 distinct glyphs (%d)" % len(glyphs))
    worst = min((sum(bin(a ^ b).count("1") for a, b in zip(g, h)), FONT[g], FONT[h])
                for i, g in enumerate(glyphs) for h in glyphs[i + 1:])
    check(worst[0] >= 2, "font: any two glyphs differ in 2 pixels or more (%r)" % (worst,))
    bitmap = {c: g for g, c in FONT.items()}
    bottom = lambda c: [(bitmap[c][col] >> 6) & 1 for col in range(5)]
    check(bottom("q")[4] == 1 and bottom("9")[4] == 0 and bottom("g")[4] == 0,
          "font: q ends in a tail at the right, 9 and g do not (%r %r %r)"
          % (bottom("q"), bottom("9"), bottom("g")))
    # the brackets the key line shows ("[ ] { }") read as themselves: a brace
    # has a point two columns deep and flat ends, five pixels or more from
    # ( ) < > [ ], and } is { mirrored
    near = min(sum(bin(a ^ b).count("1") for a, b in zip(bitmap[c], bitmap[d]))
               for c in "{}" for d in "()<>[]")
    check(near >= 5 and bitmap["}"] == bitmap["{"][::-1] and
          bitmap["{"][0] == bitmap["{"][1] == 0x08 and bitmap["{"][4] == 0x41,
          "font: { and } differ from ( ) < > [ ] in 5 pixels or more (%d)" % near)


def far_fault_tests(nxemu, far, tmp):
    # #41: the cores panel cut a fault line at the window's edge, so
    # addr=0x7000000000 read as 0x7000000; the detail now goes on a line of
    # its own, whole
    shot = os.path.join(tmp, "far.png")
    r = run([nxemu, "-display", "sdl", "-screendump-at-exit", shot, "-kernel", far],
            dict(os.environ, SDL_VIDEODRIVER="offscreen"))
    check(r.returncode == 135, "far fault: BUS_ERROR, status 135 (%d)" % r.returncode)
    _, _, rows = read_png(shot)
    lines = [read_text(rows, TEXT_X, SBUF_Y + k * LINE_H, 66) for k in range(2)]
    check(lines[0].startswith("seq0  FAULTED ") and
          lines[1].strip() == "fault=BUS_ERROR addr=0x7000000000",
          "far fault: the whole address on the line under the core (%r)" % lines)


def viewer_tests(nxemu, image, far=None):
    font_tests()
    tmp = tempfile.mkdtemp(prefix="nxemu-viewer-")
    lsan_suppress(tmp)
    try:
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen")
        shot = os.path.join(tmp, "offscreen.png")
        r = run([nxemu, "-display", "sdl", "-screendump-at-exit", shot, "-kernel", image], env)
        # Built without SDL; or main.c does not call the viewer yet.
        if r.returncode == 125 and ("without SDL" in r.stderr or "not built yet" in r.stderr
                                    or "'-screendump-at-exit': unknown option" in r.stderr):
            print("# SKIP: " + r.stderr.strip())
            return 77
        check(r.returncode == 0, "offscreen: run ends with the test device's PASS (status %d, %s)"
              % (r.returncode, r.stderr.strip()))
        check(r.stdout == "", "offscreen: nothing on stdout")
        check_picture(shot, "offscreen")
        if far:
            far_fault_tests(nxemu, far, tmp)

        # The activity zoom fits SBUF to the one KiB bin written (offset 0 of
        # partitions 3 and 70): zoom x64 shows 0x000-0xbff, 8 bytes a column,
        # so the bin is the first 128 columns of both rows.
        shot = os.path.join(tmp, "activity.png")
        r = run([nxemu, "-display", "sdl,zoom=activity", "-screendump-at-exit", shot,
                 "-kernel", image], env)
        check(r.returncode == 0, "activity zoom: run ends with PASS (status %d, %s)"
              % (r.returncode, r.stderr.strip()))
        rows = check_picture(shot, "activity zoom", min_mark=2 * 128)
        if rows:
            heading = read_text(rows, SBUF_X, SBUF_Y - 12, 64)
            check(heading.rstrip() == "SBUF 0x00000-0x00bff  x64  8 B/col  1 KiB cells  activity",
                  "activity zoom: the SBUF heading prints the scale (%r)" % heading)
        r = run([nxemu, "-display", "sdl,zoom=2", "-kernel", image], env)
        check(r.returncode == 125 and r.stderr.count("\n") == 1 and "zoom=2" in r.stderr,
              "-display sdl,zoom=2 is a one-line usage error (%d, %r)" % (r.returncode, r.stderr))

        xvfb = shutil.which("xvfb-run")
        if xvfb:
            env = dict(os.environ)
            env.pop("SDL_VIDEODRIVER", None)
            shot = os.path.join(tmp, "xvfb.png")
            r = run([xvfb, "-a", "-s", "-screen 0 1600x900x24", nxemu, "-display", "sdl",
                     "-screendump-at-exit", shot, "-kernel", image], env, timeout=120)
            check(r.returncode == 0, "xvfb: run ends with PASS (status %d, %s)"
                  % (r.returncode, r.stderr.strip()))
            check_picture(shot, "xvfb")
        else:
            print("# xvfb-run not installed: X11 window variant not run")

        # #41: a window without a screendump is held at the end until closed,
        # but never against a signal, and never where nobody can close it.
        import time
        t0 = time.monotonic()
        r = run(["timeout", "-k", "30", "5", nxemu, "-display", "sdl", "-kernel", image],
                dict(os.environ, SDL_VIDEODRIVER="offscreen"), timeout=60)
        check(r.returncode == 0 and time.monotonic() - t0 < 5,
              "offscreen, no screendump: nxemu ends by itself, no window to close "
              "(%d, %.1f s)" % (r.returncode, time.monotonic() - t0))
        if xvfb:
            env = dict(os.environ)
            env.pop("SDL_VIDEODRIVER", None)
            t0 = time.monotonic()
            # held window: timeout's SIGTERM at 3 s must end it (SIGKILL only at 33 s)
            r = run([xvfb, "-a", "-s", "-screen 0 1600x900x24", "timeout", "-k", "30", "3",
                     nxemu, "-display", "sdl", "-kernel", image], env, timeout=120)
            wall = time.monotonic() - t0
            check(r.returncode == 124 and wall < 20,
                  "xvfb, held window: the first SIGTERM ends nxemu (status %d after %.1f s)"
                  % (r.returncode, wall))

        bad = os.path.join(tmp, "no-such-dir", "x.png")
        r = run([nxemu, "-display", "sdl", "-screendump-at-exit", bad, "-kernel", image],
                dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        check(r.returncode == 0 and "screendump" in r.stderr and bad in r.stderr,
              "unwritable screenshot: one error line naming the file, run status kept")

        # The window is a loadable module (docs/viewer.rst): nxemu itself
        # does not map SDL, and a missing module is a one-line usage error.
        ldd = shutil.which("ldd")
        if ldd:
            r = run([ldd, nxemu])
            check(r.returncode == 0 and "sdl" not in r.stdout.lower(),
                  "nxemu does not link SDL (ldd lists no libSDL)")
        empty = os.path.join(tmp, "no-modules")
        os.mkdir(empty)
        r = run([nxemu, "-display", "sdl", "-kernel", image],
                dict(os.environ, SDL_VIDEODRIVER="offscreen", NXEMU_MODULE_DIR=empty))
        check(r.returncode == 125 and r.stdout == "" and r.stderr ==
              "nxemu: -display sdl: SDL display module not found (looked in %s)\n" % empty,
              "missing module: one error line naming where it looked, status 125 (%d, %r)"
              % (r.returncode, r.stderr))
        with open(os.path.join(empty, "nxemu-display-sdl.so"), "w") as f:
            f.write("not a shared library\n")
        r = run([nxemu, "-display", "sdl", "-kernel", image],
                dict(os.environ, SDL_VIDEODRIVER="offscreen", NXEMU_MODULE_DIR=empty))
        check(r.returncode == 125 and r.stdout == "" and len(r.stderr.splitlines()) == 1
              and r.stderr.startswith("nxemu: -display sdl: cannot load the SDL display module: ")
              and "nxemu-display-sdl.so" in r.stderr,
              "broken module: one error line naming the file, status 125 (%d, %r)"
              % (r.returncode, r.stderr))

        r = run([nxemu, "-screendump-at-exit", shot, "-kernel", image])
        check(r.returncode == 125 and "-screendump-at-exit" in r.stderr
              and len(r.stderr.strip().splitlines()) == 1,
              "-screendump-at-exit without -display sdl is a usage error")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def poison_tests(nxemu, image):
    r = run([nxemu, "-machine", "poison=on", "-kernel", image])
    if r.returncode == 125 and "poison" in r.stderr:
        print("# SKIP: -machine poison not wired yet: " + r.stderr.strip())
        return 77
    # Expected from tests/e2e/viewer-poison.s: one 64-byte record per
    # instruction from 0x01000000; SBUF partition 5 at 0x20_0000_0000 +
    # 5 * 0x40000 (machine.md §1.1); two 4-byte elements of never-written HBM.
    W = "nxemu: warning: poison: core=0 pc=0x%016x read of uninitialised 0x%016x (size 4)"
    want = [W % (0x01000000, 0x2000000000 + 5 * 0x40000),
            W % (0x01000000 + 4 * 64, 0x03000000),
            W % (0x01000000 + 4 * 64, 0x03000004)]
    check(r.returncode == 0, "poison=on: the run itself is unchanged (status %d)" % r.returncode)
    got = r.stderr.splitlines()
    check(got == want, "poison=on: exactly the uninitialised reads, once each, with pc and "
          "address (got %r)" % got)
    r = run([nxemu, "-kernel", image])
    check(r.returncode == 0 and "poison" not in r.stderr, "poison off by default")
    r = run([nxemu, "-machine", "poison=off", "-kernel", image])
    check(r.returncode == 0 and "poison" not in r.stderr, "poison=off")
    r = run([nxemu, "-machine", "poison=maybe", "-kernel", image])
    check(r.returncode == 125 and "poison" in r.stderr and len(r.stderr.splitlines()) == 1,
          "poison=maybe is a one-line usage error")
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--poison":
        rc = poison_tests(argv[2], argv[3])
    elif len(argv) in (3, 4):
        rc = viewer_tests(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
    else:
        print("usage: test_viewer.py [--poison] NXEMU IMAGE [FAR_FAULT_IMAGE]", file=sys.stderr)
        return 2
    if rc:
        return rc
    print("1..%d" % checks)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
