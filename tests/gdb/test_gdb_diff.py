#!/usr/bin/env python3
"""Multi-core differential test: a run debugged with stock gdb-multiarch
(breakpoints, continues, next by line and stepi on two sequencers and a
TPC) ends in the same state at the same vtime as the run without gdb (TAP).

usage: test_gdb_diff.py NXEMU NXEMU_AS SRCROOT

The machine: sequencer 0 runs tests/gdb/diff0.s (a DMA, a TPC launch, a
counted loop, semaphores with sequencer 1), sequencer 1 diff1.s, TPC 0
tpck.s, all assembled with -g.  Both runs log every retired instruction
with its results (-d commit), the semaphores, DMA and TPC events, the end
and the statistics (-d ...,machine,stats): the debugged run's log must be
the undebugged one, line for line.  gdb's stops only see the program where
the sources say it is (values worked out by hand from the sources).
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import Stub  # noqa: E402
from gdbtap import Cases, Skip, values  # noqa: E402

NXEMU, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
GDB = shutil.which('gdb-multiarch')
TMP = tempfile.mkdtemp(prefix='nxgdbdiff')
CASES = Cases()
case = CASES.case


def build():
    """diff0.elf, diff1.elf, tpck.o assembled with -g in TMP."""
    out = []
    for name, tpc in (('diff0', False), ('diff1', False), ('tpck', True)):
        shutil.copy(os.path.join(HERE, name + '.s'), TMP)
        path = os.path.join(TMP, name + ('.o' if tpc else '.elf'))
        p = subprocess.run([NXEMU_AS, '-g'] + (['-t', 'tpc'] if tpc else []) +
                           [name + '.s', '-o', path], capture_output=True, timeout=60, cwd=TMP)
        if p.returncode:
            raise Skip('nxemu-as cannot assemble %s.s: %s' % (name, p.stderr[:200]))
        out.append(path)
    return out


def machine_args(log):
    d0, d1, k = build()
    return ['-machine', 'seq=2,quantum=16', '-d', 'commit,sem,dma,tpc,machine,stats', '-D', log,
            '-device', 'loader,file=' + d0, '-device', 'loader,file=%s,cpu-num=1' % d1,
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % k]


def read(path):
    with open(path) as f:
        return f.read()


# gdb session: every core's stops; each step is of the core that stopped
# (docs/gdb.rst, "Stops do not change the timing")
# (the sequencers are threads 1.1 and 1.2 of inferior 1, the TPC thread 2.1
# of inferior 2, which scripts/nxemu-gdb.py, auto-loaded from diff0.elf,
# attaches at connect with schedule-multiple on)
SESSION = [
    'add-symbol-file diff1.elf', 'break diff1.s:6',
    'inferior 2', 'symbol-file tpck.o', 'break tpck.s:3',
    'inferior 1', 'break diff0.s:15',
    'continue', 'p $r1',               # seq0, first pass: r1 = 1
    'continue 3', 'p $r1',             # its fourth pass: r1 = 4
    'next', 'stepi', 'p $r2',          # line 16, then the blt: back at 14; r2 = 4 * 3
    'delete 3',
    'continue', 'p $r1', 'next',       # seq1 on its blt, first pass: r1 = 1
    'delete 1',
    'continue', 'p $S2', 'next', 'p $S2',  # tpc0 at bundle 0x20: S2 = 1, then 2
    'delete',
    'continue',                        # tpc0 halts (its halt on line 5)
    'inferior 1', 'break diff0.s:21',
    'continue',                        # seq1 halts, after its post(sem2)
    'continue', 'p $r1', 'p $r2',      # seq0 on its halt: r1 = 50, r2 = 150
    'delete', 'continue', 'continue',
]


@case
def debugged_run_ends_like_the_undebugged_one():
    if not GDB:
        raise Skip('gdb-multiarch not installed')
    plain = os.path.join(TMP, 'plain.log')
    p = subprocess.run([NXEMU] + machine_args(plain), capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    ref = read(plain)
    assert 'machine: run ended: reason=NORMAL_END' in ref, ref[-2000:]
    debugged = os.path.join(TMP, 'gdb.log')
    st = Stub(NXEMU, machine_args(debugged))
    st.wait_listening()
    argv = [GDB, '-nx', '-batch', '-iex', 'add-auto-load-safe-path ' + TMP,
            os.path.join(TMP, 'diff0.elf'), '-ex', 'set pagination off',
            '-ex', 'target extended-remote ' + st.path]
    for c in SESSION:
        argv += ['-ex', c]
    try:
        g = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
                           cwd=TMP)
    except subprocess.TimeoutExpired:
        st.kill()
        raise AssertionError('gdb hung')
    rc = st.wait(timeout=30)
    out = g.stdout.decode(errors='replace')
    assert values(out) == ['1', '4', '12', '1', '1', '2', '50', '150'], out
    assert 'Thread 1.1 hit Breakpoint 3, loop () at diff0.s:15' in out, out
    assert 'Thread 1.2 hit Breakpoint 1, loop () at diff1.s:6' in out, out
    assert 'Thread 2.1 hit Breakpoint 2, ?? () at tpck.s:3' in out, out
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out
    assert 'nxemu: seq1 halted at pc=0x11001c0' in out, out
    assert 'Thread 1.1 hit Breakpoint 4, loop () at diff0.s:21' in out, out
    assert '[Inferior 1 (process 1) exited normally]' in out, out
    assert rc == 0, (rc, out)
    got = read(debugged)
    if got != ref:
        a, b = ref.splitlines(), got.splitlines()
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        raise AssertionError('the debugged run differs from line %d:\n  without gdb: %s\n'
                             '  with gdb:    %s' % (i + 1, a[i] if i < len(a) else '(end)',
                                                    b[i] if i < len(b) else '(end)'))


sys.exit(CASES.run(cleanup=TMP))
