"""What the gdb test programs share: a TAP case list, skips, images
assembled from tests/gdb/*.s, and gdb's `$N = V` lines."""
import os
import re
import shutil
import subprocess
import sys
import traceback

from gdbclient import ProtocolError


class Skip(Exception):
    """A case that cannot run here (the reason is printed with SKIP)."""


class Cases:
    """Cases in definition order: `@cases.case` registers one."""

    def __init__(self):
        self.fns = []

    def case(self, fn):
        self.fns.append(fn)
        return fn

    def run(self, cleanup=None, header=None):
        """Run every case, print TAP; 1 when one failed.  cleanup: a directory
        removed at the end; header: a comment line after the plan."""
        print('1..%d' % len(self.fns))
        if header:
            print('# ' + header)
        failed = 0
        for i, fn in enumerate(self.fns, 1):
            try:
                fn()
                print('ok %d - %s' % (i, fn.__name__))
            except Skip as e:
                print('ok %d - %s # SKIP %s' % (i, fn.__name__, e))
            except (AssertionError, ProtocolError, OSError, subprocess.SubprocessError) as e:
                failed += 1
                tb = traceback.extract_tb(e.__traceback__)[-1]
                print('not ok %d - %s' % (i, fn.__name__))
                for line in ('%s at line %d: %s' % (type(e).__name__, tb.lineno,
                                                     e)).splitlines()[:40]:
                    print('# ' + line)
            sys.stdout.flush()
        if cleanup:
            shutil.rmtree(cleanup, ignore_errors=True)
        return 1 if failed else 0


def assemble(nxemu_as, src_dir, out_dir, names, tpc=()):
    """Assemble src_dir/NAME.s for each name (TPC kernels: the names in tpc)
    into out_dir; (images by name, None).  The assembler is built with the
    tree, so one that is missing or cannot assemble a test program is a
    regression: the whole test fails (TAP "Bail out!", exit 1) instead of
    skipping its cases (#42)."""
    if not os.access(nxemu_as, os.X_OK):
        print('Bail out! nxemu-as missing: %s' % nxemu_as, flush=True)
        sys.exit(1)
    images = {}
    for name in names:
        out = os.path.join(out_dir, name + '.elf')
        target = ['-t', 'tpc'] if name in tpc else []
        p = subprocess.run([nxemu_as] + target + [os.path.join(src_dir, name + '.s'), '-o', out],
                           capture_output=True, timeout=60)
        if p.returncode != 0:
            print('Bail out! nxemu-as cannot assemble %s.s: %s' % (
                name, p.stderr.decode(errors='replace').strip()[:200]), flush=True)
            sys.exit(1)
        images[name] = out
    return images, None


def bigloop(nxemu_as, src_dir, out_dir):
    """tests/gdb/longloop.s with 100 times the passes (90M instructions,
    about a second under gdb), assembled into out_dir; its path."""
    with open(os.path.join(src_dir, 'longloop.s')) as f:
        src = f.read().replace('blt.u32 r1, 300000, loop', 'blt.u32 r1, 30000000, loop')
    assert '30000000' in src
    path_s, path = os.path.join(out_dir, 'bigloop.s'), os.path.join(out_dir, 'bigloop.elf')
    with open(path_s, 'w') as f:
        f.write(src)
    subprocess.run([nxemu_as, path_s, '-o', path], check=True, timeout=60)
    return path


def values(out):
    """gdb's $N = V lines, in order."""
    return re.findall(r'^\$\d+ = (.*)$', out, re.M)
