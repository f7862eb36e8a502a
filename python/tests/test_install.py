#!/usr/bin/env python3
"""The package as users install it, offline, with no environment variable:

- `pip install ./python` into a fresh venv (--system-site-packages, so that
  numpy and pytest are Debian's), then pytest on a kernel test from another
  folder: `import nxemu` finds the build's libnxemu.so and launcher.elf;
- `meson install` into a DESTDIR: the package lands in the Python install
  folder with its _paths.py, and finds the installed library and the
  installed launcher.elf (share/nxemu), not the build tree's.

usage: test_install.py SOURCE_ROOT BUILD_DIR
Exit 77 (skipped) when venv, numpy or pytest is missing on the host.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC, BUILD = (os.path.abspath(a) for a in sys.argv[1:3])
del sys.argv[1:3]

try:
    import numpy  # noqa: F401
    import pytest  # noqa: F401
    import venv  # noqa: F401
    import ensurepip  # noqa: F401
except ImportError as e:
    print(f"skipping: {e} (Debian: python3-numpy python3-pytest python3-venv)")
    sys.exit(77)

ADD = os.path.join(SRC, "tests", "tpc-run", "add-f32.s")
OVERLAP = os.path.join(SRC, "tests", "tpc-run", "overlap-f32.s")
# the pytest file of docs/tpc-guide.rst's Python section, as a user has it
KERNEL_TEST = '''
import numpy as np
import pytest
import nxemu

KERNEL = open(%r).read()

@pytest.mark.parametrize("shape", [(1, 64), (5, 100), (3, 129)])
def test_add(shape):
    a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    b = np.ones(shape, np.float32)
    rows, cols = shape
    out = nxemu.tpc.run(KERNEL, inputs=[a, b], outputs=[(shape, np.float32)],
                        index_space=((cols + 63) // 64, rows), tpcs=2)
    np.testing.assert_array_equal(out[0], a + b)

def test_where():
    print("\\nLIB", nxemu._lib._nxemu_path)
    print("LAUNCHER", nxemu.tpc._launcher())

# TPC i copies 64 f32 to element 63 i of tensor 1 (st_tnsr: bundle 4, pc
# 0x80), so TPCs i and i+1 both write element 63 (i + 1).  Tensor 0 (512
# f32) is at 0x4000000, tensor 1 at the next 4 KiB: 0x4001000
# (docs/tpc-run.rst).
RACY = open(%r).read()

@pytest.mark.parametrize("threads", [1, 2])
def test_race_lines_in_warnings(threads):
    x = np.arange(512, dtype=np.float32)
    with pytest.warns(nxemu.tpc.RaceWarning) as caught:
        out = nxemu.tpc.run(RACY, inputs=[x], outputs=[(512, np.float32)], index_space=(4,),
                            tpcs=4, threads=threads, check=False)
    want = ["nxemu: warning: tpc race: tpc%%d pc=0x00000080 and tpc%%d pc=0x00000080 write "
            "[0x%%x, +4) (tensor 1, coordinates %%d)"
            %% (i, i + 1, 0x4001000 + 4 * 63 * (i + 1), 63 * (i + 1)) for i in range(3)]
    assert out.warnings == want
    assert [str(w.message) for w in caught] == [w.removeprefix("nxemu: warning: ") for w in want]

def test_race_free_no_race_lines():
    a = np.arange(40 * 128, dtype=np.float32).reshape(40, 128)
    out = nxemu.tpc.run(KERNEL, inputs=[a, a], outputs=[((40, 128), np.float32)],
                        index_space=(2, 40), tpcs=8, threads=2)
    np.testing.assert_array_equal(out[0], a + a)
    assert out.warnings == []
''' % (ADD, OVERLAP)


def clean_env():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("NXEMU_") and k not in ("PYTHONPATH", "PYTHONHOME")}
    return env


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, env=kw.pop("env", clean_env()), **kw)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


class TestInstall(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nxemu-install-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        with open(os.path.join(self.tmp, "test_add.py"), "w") as f:
            f.write(KERNEL_TEST)

    def pytest_where(self, python, env=None):
        out = run([python, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_add.py"],
                  cwd=self.tmp, env=env or clean_env())
        self.assertIn("7 passed", out)
        where = dict(ln.split(" ", 1) for ln in out.splitlines()
                     if ln.startswith(("LIB ", "LAUNCHER ")))
        return where["LIB"], os.path.realpath(where["LAUNCHER"])

    def test_pip_install_into_a_fresh_venv(self):
        # docs/python.rst's commands as written, in a folder where ./python
        # is the package (a link to this tree's python/)
        cmds = ["python3 -m venv --system-site-packages venv",
                "venv/bin/pip install --no-index ./python",
                "venv/bin/python -c 'import nxemu; print(nxemu.version())'"]
        with open(os.path.join(SRC, "docs", "python.rst")) as f:
            doc = f.read()
        for c in cmds:
            self.assertIn("   " + c + "\n", doc)
        os.symlink(os.path.join(SRC, "python"), os.path.join(self.tmp, "python"))
        shim = os.path.join(self.tmp, "bin")
        os.mkdir(shim)
        os.symlink(sys.executable, os.path.join(shim, "python3"))
        env = clean_env()
        env["PATH"] = shim + os.pathsep + env.get("PATH", "")
        env["NXEMU_BUILD_DIR"] = BUILD  # this build, not the tree's build/ (pip time only)
        out = ""
        for c in cmds:
            out = run(["bash", "-c", c], cwd=self.tmp, env=env)
        self.assertRegex(out, r"^0\.\d+\.\d+ \(git ")
        py = os.path.join(self.tmp, "venv", "bin", "python")
        loc = run([py, "-c", "import nxemu; print(nxemu.__file__)"], cwd=self.tmp).strip()
        self.assertTrue(loc.startswith(os.path.join(self.tmp, "venv")), loc)  # the copy
        lib, launcher = self.pytest_where(py)
        self.assertEqual(lib, os.path.join(BUILD, "python", "libnxemu.so"))
        self.assertEqual(launcher, os.path.realpath(os.path.join(BUILD, "pc-bios",
                                                                 "launcher.elf")))

    def test_meson_install(self):
        dest = os.path.join(self.tmp, "dest")
        run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", dest])
        pkgs = glob.glob(os.path.join(dest, "**", "nxemu", "_paths.py"), recursive=True)
        self.assertEqual(len(pkgs), 1, pkgs)
        site = os.path.dirname(os.path.dirname(pkgs[0]))
        self.assertRegex(site, r"/(dist|site)-packages$")
        # a DESTDIR is not on sys.path: PYTHONPATH stands for the prefix
        env = clean_env()
        env["PYTHONPATH"] = site
        lib, launcher = self.pytest_where(sys.executable, env)
        self.assertTrue(lib.startswith(dest), lib)
        self.assertTrue(launcher.startswith(os.path.realpath(dest)), launcher)
        self.assertTrue(launcher.endswith("/share/nxemu/launcher.elf"), launcher)


if __name__ == "__main__":
    unittest.main(verbosity=2)
