#!/usr/bin/env python3
"""Robustness of nxemu and its tools against hostile input and output paths
(TAP output): huge and endless inputs, FIFOs, device nodes as outputs,
write errors, signals, a huge .bss, bad nxemu-tpc-run outputs.

usage: test_robust.py NXEMU NXEMU_AS NXEMU_OBJDUMP NXEMU_TEST NXEMU_TPC_RUN LAUNCHER KSRC

Nothing here writes to a real device node through the code under test: a
symlink in the scratch directory stands for /dev/null or /dev/full, so a
program that wrongly replaces its output replaces only the symlink.
"""
import json
import os
import resource
import signal
import stat
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

NXEMU, NXAS, OBJDUMP, NXTEST, TPCRUN, LAUNCHER, KSRC = sys.argv[1:8]
t = Tap("nxemu-robust-")

PASS_S = """        .org 0x01000000
        write.u32 [0x2805000000], 0x5555
        halt
"""
LOOP_S = """        .org 0x01000000
spin:   b spin
"""


def run(args, timeout=20, limit_as=None, **kw):
    """Run args; (returncode, stdout, stderr, max RSS in KiB, seconds)."""
    def pre():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=pre, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError(f"{args[0]} still running after {timeout} s: {args}")
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace"), \
        time.monotonic() - t0


# A forked child's ru_maxrss starts from its parent's RSS (Linux copies the
# parent's page tables at fork and keeps the high-water mark across exec), so
# measuring from this test process would count whatever earlier tests left in
# it.  A fresh, small python3 does the fork+wait4 and prints the figure.
_RSS_HELPER = """
import os, subprocess, sys, time
deadline = time.monotonic() + float(sys.argv[1])
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
while True:
    pid, status, ru = os.wait4(p.pid, os.WNOHANG)
    if pid:
        break
    if time.monotonic() > deadline:
        p.kill()
        os.wait4(p.pid, 0)
        sys.exit(99)
    time.sleep(0.02)
print(os.waitstatus_to_exitcode(status), ru.ru_maxrss)
"""


def rss_of(args, timeout=60):
    """(returncode, stderr, max RSS of the nxemu process in KiB)."""
    r = subprocess.run([sys.executable, "-c", _RSS_HELPER, str(timeout)] + list(args),
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 30)
    err = r.stderr.decode(errors="replace")
    if r.returncode == 99:
        raise AssertionError(f"still running after {timeout} s: {args}")
    assert r.returncode == 0, (r.returncode, err)
    rc, rss = (int(x) for x in r.stdout.split())
    return rc, err, rss


def asm(name, text):
    src = t.write(name + ".s", text)
    out = t.path(name + ".elf")
    r = subprocess.run([NXAS, "-o", out, src], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return out


def fifo(name):
    p = t.path(name)
    if not os.path.exists(p):
        os.mkfifo(p)
    return p


def link(name, target):
    p = t.path(name)
    if os.path.lexists(p):
        os.unlink(p)
    os.symlink(target, p)
    return p


def sparse(name, size):
    p = t.path(name)
    with open(p, "wb") as f:
        f.truncate(size)
    return p


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---- 1. a size check before the whole file is read ----------------------------

@t.test
def kernel_of_one_tib_is_refused_by_size():
    p = sparse("huge.bin", 1 << 40)
    rc, _, err, _ = run([NXEMU, "-kernel", p])
    assert rc == 125, (rc, err)
    assert one_line(err) == (f"nxemu: -kernel {p}: file is 1099511627776 bytes, "
                             "more than the 4 GiB limit for images"), err


@t.test
def kernel_of_four_gib_bad_magic_reads_only_its_head():
    p = sparse("4g.bin", 4 << 30)
    rc, err, rss = rss_of([NXEMU, "-kernel", p])
    assert rc == 125 and "bad magic" in err, (rc, err)
    assert rss < 128 * 1024, f"max RSS {rss} KiB"


# ---- 2. endless inputs and FIFOs ----------------------------------------------

def address_space_cap():
    """1 GiB of address space for the endless-input cases, so a program that
    reads without end fails fast instead of filling the host; None where the
    tools cannot start under it (ASan reserves terabytes of shadow)."""
    try:
        r = subprocess.run([NXAS, "--version"], capture_output=True, timeout=20,
                           preexec_fn=lambda: resource.setrlimit(
                               resource.RLIMIT_AS, (1 << 30, 1 << 30)))
        return 1 << 30 if r.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


ONE_GIB = address_space_cap()


@t.test
def fifo_without_writer_is_refused_at_once():
    f = fifo("in.fifo")
    for args in (["-kernel", f], ["-device", f"loader,file={f},addr=0x1000000"],
                 ["-dtb", f, "-kernel", asm("pass", PASS_S)]):
        rc, _, err, secs = run([NXEMU] + args, timeout=10)
        assert rc == 125 and f"{f}: not a regular file" in err, (args, rc, err)


@t.test
def dev_zero_as_dtb_is_refused():
    rc, _, err, _ = run([NXEMU, "-dtb", "/dev/zero"], limit_as=ONE_GIB)
    assert rc == 125 and one_line(err) == "nxemu: dtb: /dev/zero: not a regular file", err


@t.test
def tools_refuse_endless_inputs():
    inc = t.write("inc.s", '        .include "/dev/zero"\n')
    cases = [
        ([NXAS, "-o", t.path("x.elf"), "/dev/zero"], 1),
        ([NXAS, "-o", t.path("x.elf"), inc], 1),
        ([NXAS, "-t", "tpc", "-o", t.path("x.o"), "/dev/zero"], 1),
        ([OBJDUMP, "-d", "/dev/zero"], 1),
        ([NXTEST, "/dev/zero"], 2),
        ([TPCRUN, "-k", "/dev/zero", "--index-space", "1"], 125),
    ]
    for args, want in cases:
        rc, _, err, _ = run(args, timeout=10, limit_as=ONE_GIB)
        assert rc == want and "/dev/zero" in err and "not a regular file" in err, \
            (args, rc, err)


@t.test
def tpc_run_refuses_a_fifo_input():
    k = t.path("add.o")
    r = subprocess.run([NXAS, "-t", "tpc", "-o", k, os.path.join(KSRC, "add-f32.s")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    f = fifo("tensor.fifo")
    rc, _, err, _ = run([TPCRUN, "--launcher", LAUNCHER, "-k", k, "--index-space", "1",
                         "-i", f"{f}:64:f32", "-i", f"{f}:64:f32",
                         "-o", t.path("o.bin") + ":64:f32"], timeout=10)
    assert rc == 125 and f"-i {f}: not a regular file" in err, (rc, err)


# ---- 3. outputs that are devices or FIFOs are written in place ---------------

def still_link_to(p, target):
    assert os.path.islink(p) and os.readlink(p) == target, f"{p} was replaced"


@t.test
def outputs_through_a_device_symlink_stay_in_place():
    elf = asm("pass", PASS_S)
    null = link("null-link", "/dev/null")
    src = t.write("p.s", PASS_S)
    for args in ([NXAS, "-o", null, src],
                 [NXEMU, "-kernel", elf, "-coverage", null],
                 [NXEMU, "-kernel", elf, "-trace-json", null],
                 [NXEMU, "-kernel", elf, "-D", null, "-d", "machine"],
                 [NXEMU, "-dump-dtb", null]):
        rc, _, err, _ = run(args)
        assert rc == 0, (args, rc, err)
        still_link_to(null, "/dev/null")
    imgs = t.path("imgs")
    os.makedirs(imgs, exist_ok=True)
    os.replace(asm("one", PASS_S), os.path.join(imgs, "one.elf"))
    for opt in ("--json", "--junit", "--coverage"):
        rc, _, err, _ = run([NXTEST, f"--nxemu={NXEMU}", f"{opt}={null}", imgs], timeout=60)
        assert rc == 0, (opt, rc, err)
        still_link_to(null, "/dev/null")


@t.test
def nxemu_test_checks_its_reports_before_running():
    imgs = t.path("spin-imgs")
    os.makedirs(imgs, exist_ok=True)
    os.replace(asm("spin", LOOP_S), os.path.join(imgs, "spin.elf"))  # would run 300 s
    for opt in ("--json", "--junit", "--coverage"):
        bad = t.path("no-such-dir/r.json")
        rc, _, err, _ = run([NXTEST, f"--nxemu={NXEMU}", f"{opt}={bad}", imgs], timeout=20)
        assert rc == 2 and one_line(err) == \
            f"{bad}: error: cannot create: No such file or directory", (opt, rc, err)
    rc, _, err, _ = run([NXTEST, f"--nxemu={NXEMU}", f"--json={t.tmp}", imgs], timeout=20)
    assert rc == 2 and one_line(err) == f"{t.tmp}: error: is a directory", (rc, err)


@t.test
def assembler_output_into_a_fifo_reaches_the_reader():
    f = fifo("out.fifo")
    reader = subprocess.Popen(["cat", f], stdout=subprocess.PIPE)
    try:
        rc, _, err, _ = run([NXAS, "--raw", "-o", f, t.write("p.s", PASS_S)], timeout=10)
        assert rc == 0, err
        data = reader.communicate(timeout=10)[0]
    finally:
        reader.kill()
        reader.wait()
    assert stat.S_ISFIFO(os.stat(f).st_mode), "the FIFO was replaced"
    assert len(data) == 128, len(data)


# ---- 4. write errors decide the exit status -----------------------------------

@t.test
def unusable_coverage_path_is_refused_before_the_run():
    elf = asm("pass", PASS_S)
    for p in (t.path("no-such-dir/c.json"), t.tmp):
        rc, _, err, _ = run([NXEMU, "-kernel", elf, "-coverage", p])
        assert rc == 125 and one_line(err).startswith(f"nxemu: -coverage: {p}: "), (rc, err)


@t.test
def full_disk_outputs_exit_126():
    elf = asm("pass", PASS_S)
    full = link("full-link", "/dev/full")
    for opt in (["-coverage", full], ["-trace-json", full], ["-D", full, "-d", "machine"]):
        rc, _, err, _ = run([NXEMU, "-kernel", elf] + opt)
        still_link_to(full, "/dev/full")
        want = f"nxemu: {opt[0]}: {full}: write failed: No space left on device"
        assert rc == 126 and want in err.splitlines(), (opt, rc, err)
    rc, _, err, _ = run([NXEMU, "-dump-dtb", full])
    assert rc == 126 and "-dump-dtb" in err and "No space left" in err, (rc, err)
    still_link_to(full, "/dev/full")


# ---- 5. a failed run keeps the previous -D log --------------------------------

@t.test
def load_error_keeps_the_previous_log():
    log = t.write("keep.log", "previous run\n")
    rc, _, err, _ = run([NXEMU, "-D", log, "-d", "machine", "-kernel", t.path("missing.elf")])
    assert rc == 125, err
    with open(log) as f:
        assert f.read() == "previous run\n"
    rc, _, err, _ = run([NXEMU, "-D", log, "-d", "machine", "-kernel", asm("pass", PASS_S)])
    with open(log) as f:
        assert rc == 0 and "run ended" in f.read(), err
    # nxemu-tpc-run's -D is the same output
    rc, _, err, _ = run([TPCRUN, "-D", log, "-k", t.path("missing.o"), "--index-space", "1"])
    with open(log) as f:
        assert rc == 125 and "run ended" in f.read(), err


# ---- 6. signals end the run in order ------------------------------------------

def start_spinning(extra):
    p = subprocess.Popen([NXEMU, "-kernel", asm("loop", LOOP_S)] + extra,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.4)
    assert p.poll() is None, p.communicate()
    return p


@t.test
def sigterm_writes_every_output_and_exits_143():
    paths = {k: t.path(k) for k in ("sig.log", "sig.json", "sig-cov.json")}
    p = start_spinning(["-D", paths["sig.log"], "-d", "stats", "-trace-json", paths["sig.json"],
                        "-coverage", paths["sig-cov.json"]])
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=10)
    err = err.decode()
    assert p.returncode == 143 and err.startswith(
        "nxemu: terminating on signal 15 (SIGTERM): icount="), (p.returncode, err)
    with open(paths["sig.json"]) as f:
        assert json.load(f)["traceEvents"]
    with open(paths["sig-cov.json"]) as f:
        json.load(f)
    with open(paths["sig.log"]) as f:
        assert "stats: run vtime=" in f.read()


@t.test
def sigint_and_sighup_exit_128_plus_n():
    for sig in (signal.SIGINT, signal.SIGHUP):
        p = start_spinning([])
        p.send_signal(sig)
        _, err = p.communicate(timeout=10)
        assert p.returncode == 128 + sig, (sig, p.returncode, err)
        assert f"nxemu: terminating on signal {int(sig)}" in err.decode(), err


@t.test
def second_signal_exits_at_once():
    # -D into a FIFO nobody reads: nxemu waits in open(2), outside the
    # machine, so the first signal cannot end the run; the second must.
    f = fifo("log.fifo")
    p = subprocess.Popen([NXEMU, "-kernel", asm("loop", LOOP_S), "-D", f],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.4)
    p.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    assert p.poll() is None, "the first signal ended a run that was not running"
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=10)
    assert p.returncode == 143 and err.decode() == "nxemu: terminating on signal 15 (SIGTERM)\n", \
        (p.returncode, err)


@t.test
def first_signal_ends_a_gdb_wait():
    sock = t.path("gdb.sock")
    p = subprocess.Popen([NXEMU, "-kernel", asm("loop", LOOP_S), "-S", "-gdb", f"unix:{sock}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.4)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=10)
    assert p.returncode == 143 and "nxemu: terminating on signal 15 (SIGTERM)" in err.decode(), \
        (p.returncode, err)


# ---- 7. a large .bss commits no host memory ------------------------------------

@t.test
def huge_bss_costs_no_host_memory():
    elf = bytearray(open(asm("bss", PASS_S), "rb").read())
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phnum, = struct.unpack_from("<H", elf, 0x38)
    assert phnum >= 1
    memsz = 0x7C000000  # 1.94 GiB
    struct.pack_into("<Q", elf, phoff + 40, memsz)  # p_memsz of segment 0
    p = t.path("bss-big.elf")
    with open(p, "wb") as f:
        f.write(elf)
    rc, err, rss = rss_of([NXEMU, "-m", "4G", "-kernel", p])
    assert rc == 0, (rc, err)
    assert rss < 256 * 1024, f"max RSS {rss} KiB"


# ---- 8. nxemu-tpc-run outputs checked before the run --------------------------

@t.test
def tpc_run_bad_outputs_are_usage_errors_before_the_run():
    k = t.path("add.o")
    r = subprocess.run([NXAS, "-t", "tpc", "-o", k, os.path.join(KSRC, "add-f32.s")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    a = t.path("a.bin")
    with open(a, "wb") as f:
        f.write(bytes(256))
    base = [TPCRUN, "--launcher", LAUNCHER, "-k", k, "--index-space", "1,1",
            "-i", f"{a}:64:f32", "-i", f"{a}:64:f32"]
    for out in (t.path("o.bin") + ":64:f32@0xfffffffffffff000",
                t.path("o.bin") + ":64:f32@0x2805000000",
                t.tmp + ":64:f32"):
        rc, _, err, _ = run(base + ["-o", out])
        assert rc == 125, (out, rc, err)
        assert "tpcs=" not in err, f"ran before refusing {out}: {err}"


t.main()
