#!/usr/bin/env python3
"""Tests of the Python package (python/nxemu) over build/python/libnxemu.so.
Plain unittest; exit 77 (meson: skipped) when numpy is missing.  Expected
values are computed with numpy from the inputs, not by nxemu.

usage: NXEMU_LIBRARY=build/python/libnxemu.so PYTHONPATH=python \
       python3 test_nxemu.py SOURCE_ROOT
"""
import os
import sys
import unittest

try:
    import numpy as np
except ImportError:
    print("numpy is not installed: skipping the nxemu Python tests")
    sys.exit(77)

import nxemu  # noqa: E402

SRC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
ADD = os.path.join(SRC, "tests", "tpc-run", "add-f32.s")
PASS = """
        .org 0x01000000
        write.u32 [0x2805000000], 0x5555
        halt
"""
# r1 = 7; r2 = r1 + 5; FAIL(3) through the test device
PROG = """
        .org 0x01000000
        mov.u32 r1, 7
        add.u32 r2, r1, 5
        write.u32 [0x2805000000], 0x33333
        halt
"""


def add_kernel():
    with open(ADD) as f:
        return nxemu.tpc.assemble(f.read(), ADD)


class TestTpcRun(unittest.TestCase):
    def test_add_f32_4_tpcs(self):
        rng = np.random.default_rng(1)
        a = rng.standard_normal((5, 100)).astype(np.float32)
        b = rng.standard_normal((5, 100)).astype(np.float32)
        r = nxemu.tpc.run(add_kernel(), inputs=[a, b], outputs=[((5, 100), np.float32)],
                          index_space=(2, 5), tpcs=4)
        np.testing.assert_array_equal(r[0], a + b)
        self.assertGreater(r.bundles, 0)
        self.assertGreaterEqual(r.cycles, r.bundles)

    def test_kernel_from_path(self):
        a = np.arange(64, dtype=np.float32)
        with open(os.path.join(self.tmp(), "add.o"), "wb") as f:
            f.write(add_kernel())
        r = nxemu.tpc.run(f.name, inputs=[a, -2 * a], outputs=[(64, "f32")], index_space=(1,))
        np.testing.assert_array_equal(r[0], -a)

    def tmp(self):
        import tempfile
        d = tempfile.mkdtemp(prefix="nxemu-py-")
        self.addCleanup(lambda: __import__("shutil").rmtree(d, True))
        return d

    def test_too_few_tensors_is_an_error(self):
        a = np.zeros(64, np.float32)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.run(add_kernel(), inputs=[a, a], outputs=[], index_space=(1,))
        self.assertEqual(cm.exception.status, 125)
        self.assertIn("uses tensor 2", cm.exception.message)

    def test_cycle_limit_is_status_123(self):
        a = np.zeros((50, 1000), np.float32)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.run(add_kernel(), inputs=[a, a], outputs=[((50, 1000), np.float32)],
                          index_space=(16, 50), cycle_limit=500)
        self.assertEqual(cm.exception.status, 123)
        self.assertIn("limit", cm.exception.report)

    def test_assemble_error(self):
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.assemble("nop; bogus_op S1; nop; nop\n", "bad.s")
        self.assertIn("bad.s:1:", cm.exception.message)


class TestMachine(unittest.TestCase):
    def elf(self, text):
        return nxemu.seq.assemble(text)

    def write_tmp(self, data):
        import tempfile
        f = tempfile.NamedTemporaryFile(suffix=".elf", delete=False)
        f.write(data)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_options_string(self):
        m = nxemu.Machine("-M nc2,tpc=4 -m 1G")
        self.assertEqual(len(m.tpc), 4)
        m.write_u32((1 << 30) - 4, 0xCAFE)  # last word of 1 GiB of HBM
        self.assertEqual(m.read_u32((1 << 30) - 4), 0xCAFE)
        with self.assertRaises(nxemu.Error):
            m.read((1 << 30), 4)

    def test_keyword_options_and_run(self):
        path = self.write_tmp(self.elf(PASS))
        m = nxemu.Machine(machine="nc2,tpc=2", m="256M", kernel=path)
        self.assertEqual(m.run(), 0)
        self.assertGreater(m.vtime, 0)
        self.assertEqual(m.icount, 1)  # the PASS write ends the run

    def test_registers_memory_and_fail_status(self):
        m = nxemu.Machine("-m 256M")
        m.load_kernel(self.write_tmp(self.elf(PROG)))
        self.assertEqual(m.run(), 3)  # FAIL code 3 (machine.md §9.2)
        self.assertEqual(m.seq[0]["r1"], 7)
        self.assertEqual(m.seq[0]["r2"], 12)
        m.seq[0]["r5"] = 0xDEADBEEF
        self.assertEqual(m.seq[0]["r5"], 0xDEADBEEF)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.Machine("-m 256M", kernel=m and self.write_tmp(self.elf(PROG))).run(check=True)
        self.assertEqual(cm.exception.status, 3)

    def test_tpc_registers(self):
        m = nxemu.Machine("-M nc2,tpc=1")
        m.tpc[0]["s3"] = 0x12345678
        self.assertEqual(m.tpc[0]["s3"], 0x12345678)
        v = np.arange(64, dtype=np.float32)
        m.tpc[0]["v1"] = v.tobytes()
        np.testing.assert_array_equal(np.frombuffer(m.tpc[0]["v1"], np.float32), v)

    def test_errors_carry_message_and_status(self):
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.Machine("-m 1X")
        self.assertEqual(cm.exception.status, 125)
        self.assertIn("-m", cm.exception.message)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.Machine("-kernel /nonexistent.elf")
        self.assertIn("/nonexistent.elf", cm.exception.message)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.Machine("-s")
        self.assertIn("not offered", cm.exception.message)
        # the process is still here: nothing called exit()
        self.assertTrue(nxemu.version().startswith("0."))

    def test_cycle_limit(self):
        loop = ".org 0x01000000\nspin:\n        bne.u32 r0, 1, spin\n"
        m = nxemu.Machine(kernel=self.write_tmp(self.elf(loop)))
        self.assertEqual(m.run(cycle_limit=1000), 123)
        self.assertIn("limit", m.report)


if __name__ == "__main__":
    unittest.main(verbosity=2)
