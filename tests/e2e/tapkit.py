"""Shared scaffolding of the end-to-end tool tests (TAP output): a test
registry, a scratch directory, running a tool, and the TAP main loop.

    from tapkit import Tap
    t = Tap("nxemu-x-")
    @t.test
    def something(): ...
    t.main()
"""
import os
import subprocess
import sys
import tempfile


def set_bits(b, lo, width, val):
    """Bits lo..lo+width-1 of the bytearray b (little-endian bit order, as
    the TPC bundle layout counts them) set to val."""
    for i in range(width):
        bit = lo + i
        if (val >> i) & 1:
            b[bit // 8] |= 1 << (bit % 8)
        else:
            b[bit // 8] &= ~(1 << (bit % 8))


class Tap:
    def __init__(self, prefix):
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self.results = []

    def test(self, fn):
        self.results.append(fn)
        return fn

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    @staticmethod
    def run(*args):
        return subprocess.run(list(args), capture_output=True, text=True, timeout=60)

    def assemble(self, cmd, source, out, *extra):
        """Run the assembler command list `cmd` on source; the output bytes
        and the assembler's stderr (it must succeed)."""
        r = self.run(*cmd, *extra, "-o", out, source)
        assert r.returncode == 0, f"nxemu-as failed: {r.stderr}"
        with open(out, "rb") as f:
            return f.read(), r.stderr

    def main(self):
        """Run every registered test, print TAP, exit 1 if any failed."""
        print(f"1..{len(self.results)}")
        failed = 0
        for i, fn in enumerate(self.results, 1):
            try:
                fn()
                print(f"ok {i} {fn.__name__}")
            except Exception as ex:  # report and continue
                failed += 1
                print(f"not ok {i} {fn.__name__}")
                for line in repr(ex).splitlines():
                    print(f"# {line}")
        sys.exit(1 if failed else 0)
