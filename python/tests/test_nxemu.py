#!/usr/bin/env python3
"""Tests of the Python package (python/nxemu) over build/python/libnxemu.so.
Plain unittest; exit 77 (meson: skipped) when numpy is missing.  Expected
values are computed with numpy from the inputs, not by nxemu.

usage: PYTHONPATH=python python3 test_nxemu.py SOURCE_ROOT [NXEMU]
(the package finds build/python/libnxemu.so by itself; NXEMU, the nxemu
binary, is for the comparison with -d exec)
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
NXEMU = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(SRC, "build", "nxemu")
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

    def test_threads_same_result(self):
        # 8 TPCs over 16 x 40 vectors: the sum (worked out by numpy), the
        # bundles, cycles and vtime are the same on 1, 2 and 4 threads
        rng = np.random.default_rng(2)
        a = rng.standard_normal((40, 1024)).astype(np.float32)
        b = rng.standard_normal((40, 1024)).astype(np.float32)
        got = []
        for th in (1, 2, 4):
            r = nxemu.tpc.run(add_kernel(), inputs=[a, b], outputs=[((40, 1024), np.float32)],
                              index_space=(16, 40), tpcs=8, threads=th)
            np.testing.assert_array_equal(r[0], a + b)
            got.append((r.bundles, r.cycles, r.vtime))
        self.assertEqual(got[1], got[0])
        self.assertEqual(got[2], got[0])

    def test_race_fault_status(self):
        # TPCs i and i+1 both store element 63 (i+1) (tests/tpc-run/overlap-f32.s)
        src = os.path.join(os.path.dirname(ADD), "overlap-f32.s")
        with open(src) as f:
            k = nxemu.tpc.assemble(f.read(), src)
        x = np.arange(512, dtype=np.float32)
        r = nxemu.tpc.run(k, inputs=[x], outputs=[(512, np.float32)], index_space=(4,), tpcs=4,
                          threads=2, race="fault", raise_errors=False, check=False)
        self.assertEqual(r.status, 122)

    def test_threads_racing_kernels(self):
        # Racing TPCs (tests/tpc-run/race-*.s) give the 1-thread arrays and
        # race warnings for threads=1, 2 and 4 (docs/machine.rst "Host
        # threads"): a stretch whose TPCs raced runs again one TPC after
        # another, and the run says it used the threads and reran.
        import warnings
        x = 7 * np.arange(512, dtype=np.int32)
        # race-overlap-i32, 300 trips, one TPC after another: TPC i stores
        # x[j] + 299 + i at j = 63 i .. 63 i + 63, TPC i + 1 stores the
        # shared element last
        want = np.zeros(512, np.int32)
        for j in range(63 * 3 + 64):
            want[j] = 7 * j + 299 + min(j // 63, 3)
        for name, trips in (("race-overlap-i32", 300), ("race-read-i32", 500)):
            src = os.path.join(os.path.dirname(ADD), name + ".s")
            with open(src) as f:
                k = nxemu.tpc.assemble(f.read(), src)
            ref = None
            for th in (1, 2, 2, 4, 4):
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    r = nxemu.tpc.run(k, inputs=[x], outputs=[(512, np.int32)], index_space=(4,),
                                      tpcs=4, args=(trips,), threads=th, check=False)
                what = "%s threads=%d" % (name, th)
                self.assertEqual(r.threads, th, what)
                raced = [str(m.message) for m in w if m.category is nxemu.tpc.RaceWarning]
                self.assertTrue(r.warnings and raced, what)
                got = (r[0].tobytes(), r.warnings, raced, r.bundles, r.cycles, r.vtime)
                if th == 1:
                    self.assertEqual((r.stretches, r.reruns), (0, 0), what)
                    if name == "race-overlap-i32":
                        np.testing.assert_array_equal(r[0], want)
                    ref = got
                    continue
                self.assertGreater(r.reruns, 0, what)
                np.testing.assert_array_equal(r[0], np.frombuffer(ref[0], np.int32), what)
                self.assertEqual(got, ref, what)

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


# four instructions, a console byte, then PASS
STEPS = """
        .org 0x01000000
        mov.u32 r1, 7
        add.u32 r2, r1, 5
        add.u32 r2, r2, 1
        write.u32 [0x2805000004], 0x41
        write.u32 [0x2805000000], 0x5555
        halt
"""
# a TPC kernel that leaves 42 in S1
TPC42 = """nop; mov.i32 S1, 0x2a; nop; nop
halt
nop
"""
WIN0 = 0x2804000000  # TPC 0's window (docs/machine.rst, "TPC windows")


class TestDrive(unittest.TestCase):
    def machine(self, text, opts="-m 256M"):
        import tempfile
        f = tempfile.NamedTemporaryFile(suffix=".elf", delete=False)
        f.write(nxemu.seq.assemble(text))
        f.close()
        self.addCleanup(os.unlink, f.name)
        return nxemu.Machine(opts, kernel=f.name), f.name

    def test_step_matches_d_exec(self):
        import subprocess
        m, path = self.machine(STEPS)
        pcs = []
        while m.state != "ENDED":
            pcs.append(m.seq[0]["pc"])
            self.assertIn(m.step(), (None, 0))
        # -d exec of the same image, run by nxemu as users do
        out = subprocess.run([NXEMU, "-d", "exec", "-kernel", path], capture_output=True,
                             text=True, check=True).stderr
        want = [int(ln.split()[2].rstrip(":"), 16) for ln in out.splitlines()
                if ln.startswith("exec: core=0")]
        self.assertEqual(pcs, want)
        self.assertEqual(m.status, 0)
        self.assertEqual(m.seq[0]["r2"], 13)

    def test_run_icount_continues(self):
        m, _ = self.machine(STEPS)
        self.assertIsNone(m.run(icount=2))
        self.assertEqual(m.icount, 2)
        self.assertEqual(m.seq[0]["r2"], 12)
        self.assertEqual(m.state, "READY")
        m.seq[0]["r2"] = 100  # change the state, then go on
        self.assertEqual(m.run(), 0)
        self.assertEqual(m.seq[0]["r2"], 101)

    def test_state_ended_after_pass_and_console(self):
        m, _ = self.machine(STEPS)
        self.assertEqual(m.run(), 0)
        self.assertEqual(m.state, "ENDED")
        self.assertEqual(m.seq[0].state, "ENDED")  # it wrote PASS while running
        self.assertEqual(m.console, "A")
        self.assertEqual(m.step(), 0)  # an ended machine stays ended

    def test_launch_tpc_by_register_writes(self):
        # the sequencer waits for semaphore 7; Python launches the TPC
        wait = ".org 0x01000000\n        nop wait(sem7 >= 1)\n" \
               "        write.u32 [0x2805000000], 0x5555\n        halt\n"
        with tempfile_dir() as d:
            k = os.path.join(d, "k.o")
            with open(k, "wb") as f:
                f.write(nxemu.tpc.assemble(TPC42))
            m, _ = self.machine(wait, f"-M nc2,tpc=1 -m 256M "
                                      f"-device loader,file={k},addr=0x3000000,tpc-num=0")
        self.assertEqual(m.read_u32(WIN0 + 0x788), 0x3000000)  # KERNEL_BASE_LOW
        m.write_u32(WIN0 + 0x794, 1)           # KERNEL_TID_SIZE_DIM_0
        m.write_u32(WIN0 + 0x1000, 0x80000007)  # completion: semaphore 7
        m.write_u32(WIN0 + 0x1008, 1)           # EXECUTE
        self.assertEqual(m.read_u32(WIN0 + 0x100C) & 3, 1)  # RUNNING
        self.assertEqual(m.run(), 0)  # the kernel completes, the wait ends: PASS
        self.assertEqual(m.read_u32(WIN0 + 0x100C) & 3, 2)  # DONE
        self.assertEqual(m.tpc[0]["s1"], 42)

    def test_mmio_refusal_is_an_error(self):
        m = nxemu.Machine("-M nc2,tpc=1")
        with self.assertRaises(nxemu.Error) as cm:
            m.write(WIN0 + 0x1002, b"\1\0")  # not an aligned word
        self.assertIn("0x2804001002", cm.exception.message)

    def test_seq_assemble_error_carries_the_message(self):
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.seq.assemble("        mov.u32 r1, 7\n        bogus r2\n", name="prog.s")
        self.assertEqual(cm.exception.message, "prog.s:2:9: error: unknown instruction 'bogus'")

    def test_sigint_interrupts_run(self):
        import signal
        import threading
        m, _ = self.machine(".org 0x01000000\nspin:\n        bne.u32 r0, 1, spin\n")
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        with self.assertRaises(KeyboardInterrupt) as cm:
            m.run(cycle_limit=None)
        self.assertIn("SIGINT", str(cm.exception))
        self.assertEqual(m.state, "READY")  # inspectable, and it can go on
        self.assertGreater(m.icount, 0)
        self.assertEqual(m.run(cycle_limit=m.vtime + 1000), 123)

    def test_cycle_limit_none_lifts_an_earlier_limit(self):
        m, _ = self.machine(STEPS, "-m 256M -cycle-limit 1")
        self.assertIsNone(m.run(icount=1, cycle_limit=None))
        self.assertEqual(m.run(cycle_limit=None), 0)

    def test_default_cycle_limit(self):
        m, _ = self.machine(".org 0x01000000\nspin:\n        bne.u32 r0, 1, spin\n")
        self.assertEqual(m.run(), 123)
        self.assertIn("default cycle limit", m.report)


SPIN_TPC = """Top:
nop; jmpr Top; nop; nop
nop; nop; nop; nop
halt
nop
"""


class TestTpcRunDrive(unittest.TestCase):
    def test_numpy_scalar_args_and_source_text(self):
        # S0 * 1.0 + in: the farg arrives as f32 bits (axpy-f32.s: out = S0*x + y)
        with open(os.path.join(SRC, "tests", "tpc-run", "axpy-f32.s")) as f:
            src = f.read()
        x = np.arange(64, dtype=np.float32)
        y = np.ones(64, np.float32)
        r = nxemu.tpc.run(src, inputs=[x, y], outputs=[(64, np.float32)],
                          args=[np.float32(2.5)])
        np.testing.assert_array_equal(r[0], np.float32(2.5) * x + y)

    def test_missing_kernel_path_is_short(self):
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.run("no-such-kernel.o")
        self.assertIn("'no-such-kernel.o': no such file", cm.exception.message)

    def test_never_halting_kernel_default_limit(self):
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.run(SPIN_TPC)
        self.assertEqual(cm.exception.status, 123)
        self.assertIn(f"did not end within the cycle limit of {nxemu.DEFAULT_CYCLE_LIMIT} "
                      "cycles", cm.exception.message)
        self.assertIn("default cycle limit", cm.exception.message)

    def test_never_halting_kernel_sigint(self):
        import signal
        import threading
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        with self.assertRaises(KeyboardInterrupt) as cm:
            nxemu.tpc.run(SPIN_TPC, cycle_limit=None)
        self.assertIn("SIGINT", str(cm.exception))

    def test_timing_gives_stalls(self):
        a = np.arange(64, dtype=np.float32)
        r = nxemu.tpc.run(add_kernel(), inputs=[a, a], outputs=[(64, "f32")],
                          timing="interlocked")
        np.testing.assert_array_equal(r[0], a + a)
        self.assertGreater(r.stalls, 0)
        self.assertEqual(r.cycles, r.bundles + r.stalls)
        with tempfile_dir() as d:
            prof = os.path.join(d, "prof.txt")
            nxemu.tpc.run(add_kernel(), inputs=[a, a], outputs=[(64, "f32")],
                          timing="interlocked", profile=prof)
            with open(prof) as f:
                text = f.read()
        self.assertIn("add.f32 V3, V1, V2", text)  # the annotated disassembly

    def test_structured_profile(self):
        # SPU mul.f32 (Pw E5) -> add.f32 SRC (D2 / E3): distance 6, issued 1
        # apart: 5 stall cycles on S2 (docs/timing.rst, the latency table),
        # 3 bundles, 8 cycles; a functional run has no stalls
        r = nxemu.tpc.run(RAW_STALL, timing="interlocked", profile=True)
        self.assertEqual(r.cycles, 8)
        p = r.profile["tpcs"][0]
        self.assertEqual((p["cycles"], p["bundles"], p["stall_cycles"]), (8, 3, 5))
        self.assertEqual(p["stalls"]["RAW"]["S"], 5)
        top = p["hot_spots"][0]
        self.assertEqual((top["pc"], top["cycles"], top["percent"]), (0x20, 6, 75.0))
        self.assertEqual(top["waited_for"], [{"pc": 0, "cause": "RAW", "reg": "S2", "cycles": 5,
                                              "times": 1,
                                              "disasm": "nop; mul.f32 S2, S1, S1; nop; nop"}])
        self.assertAlmostEqual(sum(h["percent"] for h in p["hot_spots"]), 100.0, places=4)
        self.assertEqual(p["loops"], [])
        f = nxemu.tpc.run(RAW_STALL, profile=True).profile["tpcs"][0]
        self.assertEqual((f["cycles"], f["stall_cycles"]), (3, 0))
        self.assertIsNone(nxemu.tpc.run(RAW_STALL).profile)
        # a loop of 4 trips: 3 stalls in each trip after the first
        # (add.i32 S2 -> its own source next trip: 4), 13 cycles
        with open(os.path.join(SRC, "tests", "tpc", "timing-loop.s")) as fl:
            lp = nxemu.tpc.run(fl.read(), args=[0], timing="interlocked", profile=True)
        first = lp.profile["tpcs"][0]["loops"][0]
        self.assertEqual((first["kind"], first["trips"], first["cycles"]), ("LOOP", 4, 13))
        with tempfile_dir() as d:
            prof = os.path.join(d, "prof.txt")
            r = nxemu.tpc.run(RAW_STALL, timing="interlocked", profile=prof)
            with open(prof) as fp:
                self.assertIn("<- RAW S2 of 0x00000000 (1 time)", fp.read())
        self.assertEqual(r.profile["tpcs"][0]["hot_spots"][0]["pc"], 0x20)


RAW_STALL = """nop; mul.f32 S2, S1, S1; nop; nop
nop; add.f32 S3, S2, S1; nop; nop
halt
nop
"""


# st_g of S6 through tensor 1 at x = S6, then of S6 through tensor 2 at x = 0
STG = """nop; mov.i32 S6, %s; nop; nop
nop; set_indx I2, b00001, S6; nop; nop
gen_addr AD1, 0x1, I2; nop; nop; nop
nop; nop; nop; st_g AD1, S6
nop; mov.i32 S7, 0x0; nop; nop
nop; set_indx I3, b00001, S7; nop; nop
gen_addr AD2, 0x2, I3; nop; nop; nop
nop; nop; nop; st_g AD2, S6
halt
nop
"""
PFX = "nxemu-tpc-run: check: "


class TestCheck(unittest.TestCase):
    """The mistakes of issue #40, each reported by the checking mode (on by
    default), and their correct versions reporting nothing."""

    def run_checked(self, *a, **kw):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = nxemu.tpc.run(*a, **kw)
        self.assertEqual([str(x.message) for x in w],
                         [ln.removeprefix("nxemu-tpc-run: ") for ln in r.warnings])
        return r

    def test_clean_add_reports_nothing(self):
        a = np.ones((5, 100), np.float32)  # rows of 100: the second vector is a tail
        r = self.run_checked(add_kernel(), inputs=[a, a], outputs=[((5, 100), np.float32)],
                             index_space=(2, 5), tpcs=4)
        self.assertEqual(r.warnings, [])
        np.testing.assert_array_equal(r[0], a + a)

    def test_input_shape_smaller_than_read(self):
        a, h = np.ones((5, 100), np.float32), np.ones((5, 50), np.float32)
        r = self.run_checked(add_kernel(), inputs=[h, a], outputs=[((5, 100), np.float32)],
                             index_space=(2, 5))
        self.assertEqual(r.warnings, [
            PFX + "tpc=0 pc=0x000001a0 (ld_tnsr V1, 0x0, I2; nop; nop; nop): ld_tnsr tensor 0 "
            "at (64, 0): no element inside the tensor (sizes 50x5, dim 0 first), but tensor 1 "
            "(-i in1:100x5:f32) has elements there: do the shapes agree?; tensor 0 is "
            "-i in0:50x5:f32"])

    def test_half_index_space(self):
        a = np.ones((5, 100), np.float32)
        r = self.run_checked(add_kernel(), inputs=[a, a], outputs=[((5, 100), np.float32)],
                             index_space=(1, 5))
        # 36 of each row's 100 elements: 5 * 36
        self.assertEqual(r.warnings, [
            PFX + "-o out0:100x5:f32: 180 of 500 elements written by no TPC, the first at "
            "(64, 0) (dim 0 first): does the index space cover the tensor?"])

    def test_st_g_out_of_bounds_into_the_next_tensor(self):
        r = nxemu.tpc.run(STG % "0x400", inputs=[np.zeros(1, np.int32)],
                          outputs=[(256, np.int32), (1, np.int32)], check=False)
        self.assertEqual(r[1][0], 1024)  # what silicon does: out1[0] == 1024
        r = self.run_checked(STG % "0x400", inputs=[np.zeros(1, np.int32)],
                             outputs=[(256, np.int32), (1, np.int32)])
        self.assertEqual(r.warnings[0],
                         PFX + "tpc=0 pc=0x00000040 (gen_addr AD1, 0x1, I2; nop; nop; nop): "
                         "gen_addr tensor 1 at (1024): no element inside the tensor (sizes 256, "
                         "dim 0 first); tensor 1 is -o out0:256:i32")
        self.assertIn("-o out0:256:i32: 256 of 256 elements written by no TPC", r.warnings[1])

    def test_st_g_in_bounds_reports_nothing(self):
        r = self.run_checked(STG % "0x0", inputs=[np.zeros(1, np.int32)],
                             outputs=[(1, np.int32), (1, np.int32)])
        self.assertEqual(r.warnings, [])
        self.assertEqual(list(r[0]) + list(r[1]), [0, 0])

    def test_global_write_outside_every_tensor(self):
        r = self.run_checked(STG % "0x100000", inputs=[np.zeros(1, np.int32)],
                             outputs=[(1, np.int32), (1, np.int32)])
        self.assertRegex(r.warnings[1], "^" + PFX + r"tpc=0 pc=0x00000060 \(nop; nop; nop; "
                         r"st_g AD1, S6\): write of 0x[0-9a-f]+ \(4 bytes\) outside every "
                         r"tensor of the launch$")

    def test_int32_array_to_an_f32_kernel(self):
        a = np.arange(64, dtype=np.int32)
        f = np.ones(64, np.float32)
        r = self.run_checked(add_kernel(), inputs=[a, f], outputs=[(64, np.float32)])
        self.assertEqual(r.warnings, [
            PFX + "-i in0:64:i32: the kernel uses tensor 0 as f32: add.f32 at pc=0x000001e0 "
            "reads V1, loaded from it at pc=0x000001a0"])
        self.assertEqual(r[0][1], 1.0)  # the bits of 1 as an f32 (a denormal), plus 1
        r = self.run_checked(add_kernel(), inputs=[f, f], outputs=[(64, np.int32)])
        self.assertEqual(r.warnings, [
            PFX + "-o out0:64:i32: the kernel stores f32 into tensor 2: V3 of add.f32 at "
            "pc=0x000001e0, stored at pc=0x00000200"])

    def test_integers_declared_as_f32(self):
        a = np.arange(64, dtype=np.int32)
        f = np.ones(64, np.float32)
        r = self.run_checked(add_kernel(), inputs=[(a, "f32"), f], outputs=[(64, np.float32)])
        self.assertEqual(r.warnings, [PFX + "input 0: int32 array given as a f32 tensor: its "
                                            "bits are read as f32"])

    def test_vector_past_a_row_end(self):
        # a load at x = 128 of a 100-element row (the last vector of a block
        # of several may lie wholly past the row, on purpose): reported only
        # when another tensor of the launch has elements there
        src = """nop; mov.i32 S20, 0x80; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; mov.i32 S21, 0x0; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
nop; nop; nop; st_tnsr 0x1, I3, V1
halt
nop
"""
        a = np.ones(100, np.float32)
        r = self.run_checked(src, inputs=[a], outputs=[(64, np.float32)])
        self.assertEqual(r.warnings, [])
        np.testing.assert_array_equal(r[0], np.zeros(64, np.float32))  # padding
        r = self.run_checked(src, inputs=[a], outputs=[(200, np.float32)])
        self.assertIn("ld_tnsr tensor 0 at (128): no element inside the tensor (sizes 100, "
                      "dim 0 first), but tensor 1 (-o out0:200:f32) has elements there",
                      r.warnings[0])

    def test_poison_on_reports_reading_an_output(self):
        # reads the output before writing it: relies on outputs starting as 0
        src = """nop; mov.i32 S21, 0x0; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
ld_tnsr V1, 0x1, I3; nop; nop; nop
nop; nop; add.f32 V2, V1, V1; nop
nop; nop; nop; st_tnsr 0x1, I3, V2
halt
nop
"""
        x = np.zeros(64, np.float32)
        r = nxemu.tpc.run(src, inputs=[x], outputs=[(64, np.float32)], machine="poison=on")
        self.assertRegex(r.report, r"nxemu: warning: poison: tpc=0 pc=0x0+40 read of "
                         r"uninitialised 0x[0-9a-f]+ \(size 4\)")
        r = nxemu.tpc.run(src, inputs=[x], outputs=[(64, np.float32)])
        self.assertNotIn("poison", r.report)

    def test_write_into_an_input(self):
        src = """nop; mov.i32 S21, 0x0; nop; nop
nop; set_indx I3, b00001, S21; nop; nop
ld_tnsr V1, 0x0, I3; nop; nop; nop
nop; nop; nop; st_tnsr 0x0, I3, V1
nop; nop; nop; st_tnsr 0x1, I3, V1
halt
nop
"""
        x = np.ones(64, np.float32)
        r = self.run_checked(src, inputs=[x], outputs=[(64, np.float32)])
        self.assertEqual(len(r.warnings), 1, r.warnings)
        self.assertRegex(r.warnings[0], "^" + PFX + r"tpc=0 pc=0x00000060 \(nop; nop; nop; "
                         r"st_tnsr 0x0, I3, V1\): write of 0x[0-9a-f]+ \(4 bytes\) into "
                         r"input tensor 0; tensor 0 is -i in0:64:f32$")

    def test_fatal_and_off(self):
        a, h = np.ones((5, 100), np.float32), np.ones((5, 50), np.float32)
        with self.assertRaises(nxemu.Error) as cm:
            nxemu.tpc.run(add_kernel(), inputs=[h, a], outputs=[((5, 100), np.float32)],
                          index_space=(2, 5), check_fatal=True)
        self.assertEqual(cm.exception.status, 121)
        self.assertIn("ld_tnsr tensor 0 at (64, 0): no element inside", cm.exception.message)
        self.assertIn("--check=fatal: the checks above fail the run", cm.exception.report)
        r = nxemu.tpc.run(add_kernel(), inputs=[h, a], outputs=[((5, 100), np.float32)],
                          index_space=(2, 5), check=False)
        self.assertEqual(r.warnings, [])


    def test_loop_without_its_delay_slot_nop(self):
        import warnings
        good = guide_file("loop-sum.s")
        bad = good.replace("loop S1, S2, 1, <, End\nnop\n", "loop S1, S2, 1, <, End\n")
        self.assertNotEqual(bad, good)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            kg = nxemu.tpc.assemble(good, "loop-sum.s")
            self.assertEqual(w, [])
            kb = nxemu.tpc.assemble(bad, "bad.s")
        line = bad.splitlines().index("loop S1, S2, 1, <, End") + 1
        self.assertEqual([str(x.message) for x in w], [
            f"bad.s:{line + 1}:1: the bundle after the loop of line {line} is its delay slot: "
            "it runs once, before the loop body, not in it (the vendor's compiler puts a 'nop' "
            "there)"])
        self.assertEqual(w[0].category, nxemu.tpc.AssemblerWarning)
        self.assertEqual(nxemu.tpc.run(kg, outputs=[(1, np.int32)])[0][0], sum(range(500)))
        self.assertNotEqual(nxemu.tpc.run(kb, outputs=[(1, np.int32)])[0][0], sum(range(500)))


def guide_file(name):
    """The file docs/tpc-guide.rst tells to save as `name`."""
    import re
    with open(os.path.join(SRC, "docs", "tpc-guide.rst")) as f:
        text = f.read()
    m = re.search(r"``" + re.escape(name) + r"``::\n\n((?:   .*\n|\n)+)", text)
    return "".join(ln[3:] + "\n" for ln in m.group(1).rstrip("\n").split("\n"))


class tempfile_dir:
    def __enter__(self):
        import tempfile
        self.d = tempfile.mkdtemp(prefix="nxemu-py-")
        return self.d

    def __exit__(self, *exc):
        __import__("shutil").rmtree(self.d, True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
