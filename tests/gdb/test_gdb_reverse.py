#!/usr/bin/env python3
"""Reverse execution (bs/bc) with the stock gdb-multiarch and at the protocol
level (TAP output).

usage: test_gdb_reverse.py NXEMU NXEMU_AS SRCROOT [--snapshots]

With --snapshots every case runs again with a snapshot taken as often as
nxemu can (-replay-every 1, softmmu/gdbstub-snap.c), so that the reverse
commands re-execute from snapshots instead of from the start: the expected
values are the same.

Expected values come from the images' comments (tests/gdb/*.s), not from a
run: loop.s sets r1 = 0 at 0x1000000, then per pass adds 1 at 0x1000040,
stores r1 to Neuron 0x2000000 at 0x1000080 and loops at 0x10000c0 while
r1 < 5, so after the loop the word is 5 and its last write (pass 5) is the
store at 0x1000080 with r1 = 5 and the word still 4.  dmaw.s copies
0x11..0x44 to 0x2000200 by a 16-byte DMA of seq0 (the word at 0x2000208
becomes 0x33, 51) while seq0 waits at 0x1000040.  launchst.s starts tpcst.s
on TPC 0, whose bundle at 0x20 stores 7 to the 64 lanes of tensor 0 (kernel
offset 0x1000, PA 0x101000).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import Stub, gdb_batch  # noqa: E402
from gdbtap import Cases, Skip, assemble, bigloop, values  # noqa: E402

# These sessions drive the per-core-process model (-gdb DEV,cores=processes,
# docs/gdb.rst): each core its own gdb process, attached one by one.
Stub.CORES = 'processes'

NXEMU, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
SNAPSHOTS = '--snapshots' in sys.argv[4:]
SNAP_ARGS = ['-replay-every', '1'] if SNAPSHOTS else []
GDB = shutil.which('gdb-multiarch')
IMG = tempfile.mkdtemp(prefix='nxgdbrev')


IMAGES, NO_IMAGES = assemble(
    NXEMU_AS, HERE, IMG, ('loop', 'dmaw', 'launchst', 'tpcst', 'timing', 'timing1', 'callf',
                          'fault', 'spin', 'longloop', 'whowrote'), tpc=('tpcst',))


def need(gdb=True):
    if gdb and not GDB:
        raise Skip('gdb-multiarch not installed')
    if not IMAGES:
        raise Skip(NO_IMAGES)


def loop_args(extra=()):
    return ['-device', 'loader,file=%s' % IMAGES['loop']] + list(extra)


def dmaw_args():
    return ['-device', 'loader,file=%s' % IMAGES['dmaw']]


def tpc_store_args():
    return ['-device', 'loader,file=%s' % IMAGES['launchst'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpcst']]


def gdb_session(args, cmds, timeout=120):
    """One gdb batch session; returns (gdb output, nxemu status, nxemu stdout)."""
    st = Stub(NXEMU, list(args) + SNAP_ARGS)
    st.wait_listening()
    setup = ['set pagination off', 'target extended-remote %s' % st.path]
    return gdb_batch(GDB, st, setup + list(cmds), timeout=timeout)


CASES = Cases()
case = CASES.case


@case
def reverse_stepi_restores_pc_and_registers():
    need()
    out, rc = gdb_session(loop_args(), [
        'stepi 3', 'p/x $pc', 'p $r1', 'p $retired',
        'reverse-stepi', 'p/x $pc', 'p $r1', 'p $retired',
        'reverse-stepi', 'p/x $pc', 'p $r1', 'p $retired',
        'reverse-stepi', 'p/x $pc', 'p $retired',
        'reverse-stepi', 'p/x $pc',
        'stepi', 'p/x $pc', 'p $r1',
        'continue'])
    v = values(out)
    assert v == ['0x10000c0', '1', '3',     # mov, add, tst retired
                 '0x1000080', '1', '2',     # before the tst: r1 already 1
                 '0x1000040', '0', '1',     # before the add: r1 back to 0
                 '0x1000000', '0',          # before the first instruction
                 '0x1000000',               # no history before the start
                 '0x1000040', '0'], (v, out)
    assert out.count('No more reverse-execution history.') == 1, out
    # the three steps from the start ran outside any round: said once
    assert out.count('nxemu: reverse: 3 debugger steps ran outside the schedule') == 1, out
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def reverse_continue_to_a_breakpoint():
    need()
    out, rc = gdb_session(loop_args(), [
        'break *0x1000100', 'continue', 'p $r1',
        'break *0x1000040', 'reverse-continue', 'p/x $pc', 'p $r1',
        'reverse-continue', 'p $r1',
        'continue', 'p $r1', 'delete', 'continue'])
    v = values(out)
    # at 0x1000040 (the add) of pass 5 r1 is 4, of pass 4 it is 3; forward
    # again from pass 4 the breakpoint stops at pass 5
    assert v == ['5', '0x1000040', '4', '3', '4'], (v, out)
    assert len(re.findall(r'^Breakpoint 2, 0x0000000001000040', out, re.M)) == 3, out
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def reverse_continue_to_a_watchpoint_names_the_store():
    need()
    out, rc = gdb_session(loop_args(), [
        'break *0x1000100', 'continue', 'delete',
        'watch *(int*)0x2000000', 'reverse-continue', 'p/x $pc', 'p $r1', 'p *(int*)0x2000000',
        'reverse-continue', 'p $r1', 'p *(int*)0x2000000',
        'delete', 'continue'])
    assert 'nxemu: reverse: seq0 at pc=0x1000080 writes PA 0x2000000+4' in out, out
    v = values(out)
    # the stop is on the writing TensorStore, before it: r1 = 5, word 4;
    # one write earlier: r1 = 4, word 3
    assert v == ['0x1000080', '5', '4', '4', '3'], (v, out)
    assert re.search(r'Old value = 5\nNew value = 4\n0x0000000001000080', out), out
    assert re.search(r'Old value = 4\nNew value = 3\n0x0000000001000080', out), out
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def reverse_continue_to_a_watchpoint_names_the_dma_completion():
    need()
    out, rc = gdb_session(dmaw_args(), [
        'break *0x1000180', 'continue', 'delete', 'p *(int*)0x2000208',
        'watch *(int*)0x2000208', 'reverse-continue', 'p *(int*)0x2000208',
        'p *(int*)0x2000200', 'reverse-continue', 'p/x $pc',
        'delete', 'continue'])
    assert ('nxemu: reverse: dma0 completing a request of seq0 (16 bytes) writes PA '
            '0x2000208+4') in out, out
    v = values(out)
    # before the completion nothing of the transfer has moved; the next
    # reverse-continue finds no earlier write and stops at the start
    assert v == ['51', '0', '0', '0x1000000'], (v, out)
    assert 'No more reverse-execution history.' in out, out
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def catchpoints_are_kept_across_a_reverse_command():
    # dmaw.s: back before the DMA completion, `monitor catch dma` set before
    # the reverse-continue still stops when the transfer then completes
    need()
    out, rc = gdb_session(dmaw_args(), [
        'break *0x1000180', 'continue', 'delete', 'monitor catch dma',
        'watch *(int*)0x2000208', 'reverse-continue', 'delete', 'monitor catch', 'continue',
        'p *(int*)0x2000208', 'monitor catch off', 'continue'])
    rev = out.find('nxemu: reverse: dma0 completing')
    assert rev >= 0, out
    assert 'catch: dma' in out[rev:], out
    assert re.search(r'nxemu: catch: dma0 completed 16 bytes for seq0 at vtime=\d+', out[rev:]), out
    assert values(out) == ['51'], (values(out), out)
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def reverse_continue_to_a_watchpoint_names_the_tpc_bundle():
    need()
    out, rc = gdb_session(tpc_store_args(), [
        'add-inferior', 'inferior 2', 'attach 2', 'set schedule-multiple on',
        'continue', 'p *(int*)0x1004',
        'watch *(int*)0x1004', 'reverse-continue', 'p/x $pc', 'p *(int*)0x1004',
        'delete', 'continue', 'continue'])
    # the kernel halts (stop), then the watch on lane 1 goes back to st_tnsr
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out
    assert 'nxemu: reverse: tpc0 at pc=0x20 writes PA 0x101004+4' in out, out
    v = values(out)
    assert v == ['7', '0x20', '0'], (v, out)
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def reverse_moves_the_whole_machine():
    # timing.s on seq0 and timing1.s on seq1, quantum 16: in round 0 seq0
    # runs 16 instructions (dma, mov, four passes of 3, two adds: r1 = 5),
    # then seq1 (mov r1 = 0 at 0x1100000; add r1 at 0x1100040, blt at
    # 0x1100080 per pass).  A breakpoint on seq1's blt stops at r1 = 1, then
    # r1 = 2, all in round 0, so seq0 stands at r1 = 5 throughout.  Going
    # back in seq1 past its first instruction reaches the start: seq0 is
    # back at 0x1000000 with r1 = 0.  schedule-multiple makes gdb re-read
    # every inferior after a resume (docs/gdb.rst).
    need()
    out, rc = gdb_session(['-machine', 'seq=2,quantum=16',
                           '-device', 'loader,file=%s' % IMAGES['timing'],
                           '-device', 'loader,file=%s,cpu-num=1' % IMAGES['timing1']], [
        'add-inferior', 'inferior 2', 'attach 2', 'set schedule-multiple on',
        'break *0x1100080', 'continue', 'continue', 'p $r1',
        'reverse-stepi', 'p/x $pc', 'p $r1', 'inferior 1', 'p $r1', 'inferior 2',
        'reverse-continue', 'p/x $pc', 'p $r1',
        'reverse-stepi', 'reverse-stepi', 'p/x $pc', 'inferior 1', 'p $r1', 'inferior 2',
        'reverse-stepi', 'inferior 1', 'p $r1', 'p/x $pc',
        'delete', 'continue', 'continue', 'continue', 'continue'])
    v = values(out)
    assert v == ['2', '0x1100040', '1', '5', '0x1100080', '1', '0x1100000', '5',
                 '0', '0x1000000'], (v, out)
    assert 'No more reverse-execution history.' in out, out
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def reverse_stepi_of_a_tpc_bundle():
    # tpcst.s: bundle 0x0 adds 7 to V1, 0x20 stores V1 to tensor 0 (lane 1
    # at kernel offset 0x1004), 0x40 is empty, 0x60 halts (HALT is a bundle
    # that retires: back from the halt stop is before it, at 0x60 still).
    # Back one bundle at a time: before the store lane 1 is still 0, before
    # the add V1 is 0 again.
    need()
    out, rc = gdb_session(tpc_store_args(), [
        'add-inferior', 'inferior 2', 'attach 2', 'set schedule-multiple on',
        'continue', 'p/x $pc',
        'reverse-stepi', 'p/x $pc',
        'reverse-stepi', 'p/x $pc', 'p *(int*)0x1004',
        'reverse-stepi', 'p/x $pc', 'p *(int*)0x1004', 'p $V1.i32[0]',
        'reverse-stepi', 'p/x $pc', 'p $V1.i32[0]',
        'continue', 'continue'])
    assert out.count('nxemu: tpc0 halted at pc=0x60') == 2, out
    v = values(out)
    assert v == ['0x60', '0x60', '0x40', '7', '0x20', '0', '7', '0x0', '0'], (v, out)
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def reverse_stepi_out_of_a_fault():
    # fault.s: nop at 0x1000000, an undefined opcode at 0x1000040
    # (INVALID_OPCODE = 1, SIGILL).  Back from the fault stop: before the
    # nop, no fault recorded; forward again the same fault, then the end.
    need()
    out, rc = gdb_session(['-device', 'loader,file=%s' % IMAGES['fault']], [
        'continue', 'p $fault_code', 'reverse-stepi', 'p/x $pc', 'p $fault_code',
        'continue', 'p/x $pc', 'continue'])
    assert values(out) == ['1', '0x1000000', '0', '0x1000040'], (values(out), out)
    assert out.count('Program received signal SIGILL') == 2, out
    assert 'Program terminated with signal SIGILL' in out, out
    assert rc == 132, rc


@case
def reverse_finish_returns_to_the_call():
    # callf.s: start calls twice (adds 2 to r2 at 0x1001000, 1 to r3 at
    # `again`) from 0x1000080, three times.  In the second call at `again`
    # r2 = 4, r3 = 1; reverse-finish goes back to that call, before it
    # (r2 = 2); reverse-nexti then to the add of r1 of that pass (r1 = 1).
    need()
    st = Stub(NXEMU, ['-device', 'loader,file=%s' % IMAGES['callf']] + SNAP_ARGS)
    st.wait_listening()
    argv = [GDB, '-nx', '-batch', IMAGES['callf'], '-ex', 'set pagination off',
            '-ex', 'target extended-remote %s' % st.path]
    for c in ('break again', 'continue', 'continue', 'p $r2', 'reverse-finish', 'p/x $pc',
              'p $r2', 'reverse-nexti', 'p/x $pc', 'p $r1', 'delete', 'continue'):
        argv += ['-ex', c]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        st.kill()
        raise AssertionError('gdb hung')
    rc = st.wait(timeout=30)
    out = p.stdout.decode(errors='replace') + p.stderr.decode(errors='replace')
    assert values(out) == ['4', '0x1000080', '2', '0x1000040', '1'], (values(out), out)
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def reverse_then_forward_keeps_the_timing():
    # timing.s (seq0, with a DMA) and timing1.s (seq1) end at vtime 304
    # without a debugger (tests/gdb/test_gdb_batch.py, TIMING_END).  Going
    # back and forward again ends the run at the same vtime, and the -D log
    # is written once, by the last process (no temporary files left).
    need()
    logdir = tempfile.mkdtemp(prefix='nxrevlog', dir=IMG)
    log = os.path.join(logdir, 'machine.log')
    out, rc = gdb_session([
        '-machine', 'seq=2,quantum=16', '-d', 'machine', '-D', log,
        '-device', 'loader,file=%s' % IMAGES['timing'],
        '-device', 'loader,file=%s,cpu-num=1' % IMAGES['timing1']], [
        'break *0x10000c0', 'continue', 'continue', 'continue', 'p $r1',
        'reverse-continue', 'p $r1', 'reverse-stepi', 'reverse-stepi', 'p/x $pc', 'p $r1',
        'stepi', 'stepi', 'delete', 'continue'])
    # the loop is add r1 (0x1000080), add r2 (0x10000c0), blt (0x1000100):
    # two instructions back from the add r2 of pass 2 is the blt of pass 1
    assert values(out) == ['3', '2', '0x1000100', '1'], (values(out), out)
    assert 'outside the schedule' not in out, 'stops and steps inside the slices'
    assert rc == 0, rc
    with open(log) as f:
        ended = re.findall(r'^machine: run ended: reason=(\w+) .*vtime=(\d+)$', f.read(), re.M)
    assert ended == [('NORMAL_END', '304')], ended
    assert os.listdir(logdir) == ['machine.log'], os.listdir(logdir)


@case
def reverse_after_a_register_write_is_refused():
    need()
    out, rc = gdb_session(loop_args(), [
        'stepi', 'set $r5 = 7', 'stepi', 'reverse-stepi', 'p/x $pc', 'kill'])
    # re-execution cannot reproduce the write: refused, nothing moved
    assert 'a register write at position 1 changed the run' in out, out
    assert values(out) == ['0x1000080'], out


LONG_CMDS = ['break *0x1000100', 'continue', 'p $r1',
             'reverse-stepi', 'p/x $pc', 'p $r1',
             'delete', 'watch *(int*)0x2000000', 'reverse-continue', 'p/x $pc', 'p $r1',
             'reverse-continue', 'p $r1', 'monitor info replay', 'delete', 'continue']
# longloop.s: at 0x1000100 r1 = 300000 (position 900001); one step back is
# the blt of the last pass; the last write of the word is the store of pass
# 300000 (old 299999, r1 300000), the one before it that of pass 299999
LONG_VALUES = ['300000', '0x10000c0', '300000', '0x1000080', '300000', '299999']


def long_pids():
    """nxemu processes still running longloop.elf."""
    pids = []
    for d in os.listdir('/proc'):
        try:
            with open('/proc/%s/cmdline' % d, 'rb') as f:
                if IMAGES['longloop'].encode() in f.read():
                    pids.append(int(d))
        except (OSError, ValueError):
            pass
    return pids


def replayed(out):
    m = re.search(r'last reverse command: re-executed (\d+) steps, from (the start|the snapshot)',
                  out)
    assert m, out
    return int(m.group(1)), m.group(2)


@case
def reverse_from_snapshots_gives_the_same_answers():
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    img = ['-device', 'loader,file=%s' % IMAGES['longloop']]
    out0, rc0 = gdb_session(img + ['-replay-memory', '0'], LONG_CMDS)
    out1, rc1 = gdb_session(img + ['-replay-every', '20000'], LONG_CMDS)
    assert values(out0) == LONG_VALUES, (values(out0), out0)
    assert values(out1) == LONG_VALUES, (values(out1), out1)
    for out in (out0, out1):
        assert 'seq0 at pc=0x1000080 writes PA 0x2000000+4 (position 899999)' in out, out
        assert 'exited with code 03' in out, out
    # without snapshots the last command re-executed everything from the
    # start (scan to 899999 and go to 899996); from a snapshot at most two
    # spacings (the spacing doubles as they are thinned out: 20000 to 40000)
    steps0, from0 = replayed(out0)
    steps1, from1 = replayed(out1)
    assert from0 == 'the start' and steps0 == 899999 + 899996, out0
    assert from1 == 'the snapshot' and steps1 <= 4 * 40000, out1
    assert re.search(r'\d+ snapshots of \d+ bytes \(-replay-memory 536870912\)', out1), out1
    # the root handed the session over and waited: the run's own status
    assert rc0 == 3 and rc1 == 3, (rc0, rc1)
    # none outlives nxemu: gone by the time its status is known
    assert long_pids() == [], 'snapshots left behind: %r' % long_pids()


def reversed_by_a_snapshot():
    """longloop.s under a gdb that goes to the end, steps back once (a
    snapshot's copy then runs the session) and sleeps: (stub, gdb)."""
    st = Stub(NXEMU, ['-device', 'loader,file=%s' % IMAGES['longloop'], '-replay-every', '20000'])
    st.wait_listening()
    argv = [GDB, '-nx', '-batch', '-ex', 'target extended-remote %s' % st.path,
            '-ex', 'break *0x1000100', '-ex', 'continue', '-ex', 'reverse-stepi',
            '-ex', 'p $r1', '-ex', 'shell sleep 30']
    g = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    line = b''
    while time.time() < deadline and not line.startswith(b'$1 = '):
        line = g.stdout.readline()
        if not line and g.poll() is not None:
            break
    if not line.startswith(b'$1 = 300000') or len(long_pids()) <= 2:
        g.kill()
        g.wait()
        st.kill()
        raise AssertionError('no reverse step from a snapshot: %r, %d processes' %
                             (line, len(long_pids())))
    return st, g


@case
def a_signal_to_nxemu_reaches_the_process_gdb_talks_to():
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    st, g = reversed_by_a_snapshot()
    try:
        st.proc.send_signal(15)
        rc = st.wait(timeout=30)
    finally:
        g.kill()
        g.wait()
    # as without gdb: the orderly end on SIGTERM (128 + 15)
    assert rc == 143, rc
    time.sleep(0.5)
    assert long_pids() == [], 'left behind: %r' % long_pids()


@case
def a_re_executed_nxemu_keeps_its_name():
    """Going back from the start executes nxemu again (/proc/self/exe): ps,
    top and pgrep -x must still see "nxemu", not "exe"."""
    need()
    st = Stub(NXEMU, loop_args(['-replay-memory', '0']))
    st.wait_listening()
    p = subprocess.run([GDB, '-nx', '-batch', '-ex', 'target extended-remote %s' % st.path,
                        '-ex', 'stepi', '-ex', 'stepi', '-ex', 'reverse-stepi',
                        '-ex', 'shell cat /proc/%d/comm' % st.proc.pid, '-ex', 'continue'],
                       capture_output=True, timeout=120)
    out = p.stdout.decode(errors='replace') + p.stderr.decode(errors='replace')
    rc = st.wait(timeout=30)
    assert re.search(r'^nxemu$', out, re.M), out
    assert rc == 0, rc


@case
def gdb_killed_during_a_reverse_command():
    """gdb killed while nxemu re-executes for a reverse-continue (from the
    start, 90M instructions of longloop.s made 100 times longer): the
    re-executed nxemu notices, runs on without a debugger and ends with the
    program's status, 3 (it waited for a new gdb forever)."""
    need()
    big = bigloop(NXEMU_AS, HERE, IMG)
    st = Stub(NXEMU, ['-device', 'loader,file=%s' % big, '-replay-memory', '0'])
    st.wait_listening()
    g = subprocess.Popen([GDB, '-nx', '-batch', '-ex', 'target extended-remote %s' % st.path,
                          '-ex', 'break *0x1000100', '-ex', 'continue', '-ex', 'delete',
                          '-ex', 'watch *(int*)0x2000000', '-ex', 'reverse-continue'],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        line = b''
        while time.time() < deadline and not line.startswith(b'Hardware watchpoint 2'):
            line = g.stdout.readline()
            if not line and g.poll() is not None:
                break
        assert line.startswith(b'Hardware watchpoint 2'), line
        time.sleep(0.5)  # inside the re-execution (seconds long)
    finally:
        g.kill()
        g.wait()
    assert st.wait(timeout=120) == 3, st.stderr


@case
def rescans_from_earlier_snapshots_stay_within_the_budget():
    """reverse-continue to a breakpoint on the first instruction (position
    0) from the end of longloop.s: each scan from a snapshot finds nothing
    and the next starts from the snapshot before it, up to where the last
    one began, so the steps add up (about 39,000, then 40,000 more, ...,
    with snapshots every 40,000 steps after thinning).  With -replay-budget
    150000 the fourth scan is refused, with the sum in the message, and the
    session stays where it was (r1 = 300000, the run then ends with its
    status 3)."""
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    out, rc = gdb_session(['-device', 'loader,file=%s' % IMAGES['longloop'],
                           '-replay-every', '20000', '-replay-budget', '150000'], [
        'break *0x1000100', 'continue', 'delete', 'break *0x1000000', 'reverse-continue',
        'p $r1', 'p/x $pc', 'delete', 'continue'])
    m = re.search(r'E\.nxemu: reverse: (\d+) steps to re-execute exceed -replay-budget 150000',
                  out)
    assert m and 150000 < int(m.group(1)) <= 3 * 120000, out
    assert values(out) == ['300000', '0x1000100'], (values(out), out)
    assert 'exited with code 03' in out and rc == 3, (rc, out)


@case
def a_lost_snapshot_is_skipped():
    """Killing the two latest snapshots (pids from monitor info replay): the
    reverse-stepi re-executes from the one before them, same answer."""
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    script = os.path.join(IMG, 'lost.gdb')
    with open(script, 'w') as f:
        f.write("python import gdb, os, re, signal\n"
                "break *0x1000100\n"
                "continue\n"
                "python info = gdb.execute('monitor info replay', to_string=True)\n"
                "python snaps = [(int(a), int(b)) for a, b in "
                "re.findall(r'at position (\\d+) \\(\\d+ KiB, pid (\\d+)\\)', info)]\n"
                "python [os.kill(pid, signal.SIGKILL) for pos, pid in snaps[-2:]]\n"
                "python print('EXPECT-FROM %d' % snaps[-3][0])\n"
                "reverse-stepi\n"
                "p/x $pc\n"
                "p $r1\n"
                "monitor info replay\n"
                "delete\n"
                "continue\n")
    st = Stub(NXEMU, ['-device', 'loader,file=%s' % IMAGES['longloop'], '-replay-every', '20000'])
    st.wait_listening()
    p = subprocess.run([GDB, '-nx', '-batch', '-ex', 'target extended-remote %s' % st.path,
                        '-x', script], capture_output=True, timeout=120)
    rc = st.wait(timeout=30)
    out = p.stdout.decode(errors='replace') + p.stderr.decode(errors='replace')
    assert values(out) == ['0x10000c0', '300000'], (values(out), out)
    want = re.search(r'EXPECT-FROM (\d+)', out)
    assert want, out
    assert 'from the snapshot at position %s\n' % want.group(1) in out, out
    assert rc == 3, rc


@case
def killing_nxemu_leaves_no_process_behind():
    """SIGKILL (no handler runs) to the nxemu that was started, after a
    reverse command made a snapshot's copy the active process: the copy
    and every snapshot end with it."""
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    st, g = reversed_by_a_snapshot()
    try:
        st.proc.kill()
        st.wait(timeout=30)
        deadline = time.time() + 10
        while long_pids() and time.time() < deadline:
            time.sleep(0.05)
        assert long_pids() == [], 'left behind: %r' % long_pids()
    finally:
        g.kill()
        g.wait()


# ---- protocol level ----

def connect(args):
    st = Stub(NXEMU, list(args) + SNAP_ARGS)
    c = st.connect()
    return st, c


@case
def qsupported_and_the_start():
    need(gdb=False)
    st, c = connect(loop_args())
    try:
        assert b';ReverseStep+;ReverseContinue+' in c.cmd('qSupported:multiprocess+')
        assert c.cmd('!') == b'OK'
        # at the start: replaylog:begin, nothing moves
        for pkt in ('bs', 'bc'):
            r = c.cmd(pkt)
            assert r.startswith(b'T05') and b'thread:p1.1;' in r and b'replaylog:begin;' in r, r
        assert c.cmd('s').startswith(b'T05')
        assert c.cmd('p20') == b'4000000100000000'
        r = c.cmd('bs')
        assert r.startswith(b'T05') and b'replaylog' not in r, r
        assert c.cmd('p20') == b'0000000100000000', 'back before the first instruction'
        assert c.cmd('p66') == b'0000000000000000', 'retired back to 0'
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    st.wait()


@case
def replay_budget_bounds_and_disables():
    need(gdb=False)
    st, c = connect(loop_args(['-replay-budget', '2']))
    try:
        c.cmd('qSupported:multiprocess+')
        for _ in range(3):
            assert c.cmd('s').startswith(b'T05')
        r = c.cmd('bs')
        assert r == b'E.nxemu: reverse: 3 steps to re-execute exceed -replay-budget 2', r
        assert c.cmd('p20') == b'c000000100000000', 'refused: nothing moved'
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    st.wait()
    st, c = connect(loop_args(['-replay-budget', '0']))
    try:
        r = c.cmd('qSupported:multiprocess+')
        assert b'Reverse' not in r, r
        assert c.cmd('bs') == b'' and c.cmd('bc') == b'', 'off: unsupported packets'
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    st.wait()


@case
def dma_target_at_the_protocol_level():
    # dmaw.s at its PASS write (0x1000180): Z2 on 0x2000208 then bc stops
    # before the DMA completion (memory of the whole transfer still 0),
    # with the console line first; gdb's bs right after it moves nothing;
    # c then completes the transfer and reports the watch after the write.
    need(gdb=False)
    st, c = connect(dmaw_args())
    try:
        c.cmd('qSupported:multiprocess+')
        assert c.cmd('!') == b'OK'
        assert c.cmd('Z0,1000180,4') == b'OK'
        assert b'swbreak' in c.cmd('vCont;c')
        assert c.cmd('z0,1000180,4') == b'OK'
        assert c.cmd('Z2,2000208,4') == b'OK'
        c.console.clear()
        r = c.cmd('bc')
        assert r.startswith(b'T05') and b'watch:2000208;' in r, r
        assert any('dma0 completing a request of seq0 (16 bytes) writes PA 0x2000208+4' in t
                   for t in c.console), c.console
        assert c.cmd('m2000200,10') == b'00' * 16, 'nothing of the transfer moved'
        assert c.cmd('p20') == b'4000000100000000', 'seq0 waits for the DMA'
        r = c.cmd('bs')
        assert r.startswith(b'T05') and b'watch' not in r, r
        assert c.cmd('m2000200,10') == b'00' * 16
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'watch:2000208;' in r, r
        assert c.cmd('m2000200,10') == b'11000000220000003300000044000000'
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    st.wait()


@case
def bad_replay_budget_is_a_usage_error():
    p = subprocess.run([NXEMU, '-replay-budget', 'abc', '-S', '-s'], capture_output=True,
                       timeout=30)
    assert p.returncode == 125, p.returncode
    assert p.stderr == b"nxemu: -replay-budget: 'abc': not a number (decimal or 0x hex)\n", \
        p.stderr


@case
def ctrl_c_interrupts_a_reverse_command():
    """spin.s runs until interrupted (r1 counts the passes, 2 instructions
    each).  After 1.5 s forward, a bs must re-execute every retired
    instruction from the start (tens of millions here, seconds of work);
    a Ctrl-C 0.3 s into it stops the re-execution with SIGINT (T02, not the
    T05 of a finished step) at an earlier position, says so on the console,
    and the run goes forward and is interrupted again from there."""
    need(gdb=False)
    # no snapshots: the re-execution runs from the start
    st, c = connect(['-device', 'loader,file=%s' % IMAGES['spin'], '-replay-budget',
                     '1000000000000000', '-replay-memory', '0'])
    try:
        c.cmd('qSupported:multiprocess+')
        c.send(b'vCont;c')
        time.sleep(1.5)
        c.send_raw(b'\x03')
        assert c.reply().startswith(b'T02')
        before = int.from_bytes(bytes.fromhex(c.cmd('p66').decode()), 'little')
        assert before > 10**6, before
        c.console.clear()
        t0 = time.time()
        c.send(b'bs')
        time.sleep(0.3)
        c.send_raw(b'\x03')
        r = c.reply()
        took = time.time() - t0
        assert r.startswith(b'T02') and b'thread:p1.1;' in r, r
        after = int.from_bytes(bytes.fromhex(c.cmd('p66').decode()), 'little')
        assert 0 < after < before - 1, (after, before)
        assert any('nxemu: reverse: interrupted at position' in t for t in c.console), c.console
        # the r1 of that point: one add per pass, so r1 = retired / 2 (+1
        # when stopped between the add and the branch)
        r1 = int.from_bytes(bytes.fromhex(c.cmd('p22').decode()), 'little')  # r1: 33 + 1
        assert r1 in (after // 2, after // 2 + 1), (r1, after)
        c.send(b'vCont;c')
        time.sleep(0.2)
        c.send_raw(b'\x03')
        assert c.reply().startswith(b'T02')
        later = int.from_bytes(bytes.fromhex(c.cmd('p66').decode()), 'little')
        assert later > after, (later, after)
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    st.wait()
    print('# bs interrupted after %.2f s at %d of %d instructions' % (took, after, before))


@case
def who_wrote_this_word_far_back_costs_the_distance():
    """whowrote.s stores to 0x2000100 at position 1, then runs 900,000
    instructions.  From its end, watch + reverse-continue names the store
    (seq0 at 0x1000040) and re-executes about the distance back: each scan
    from a snapshot ends where the scan after it began (before, each ran to
    the current position: about 20 times the distance with the snapshots
    of -replay-every 20000)."""
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    out, rc = gdb_session(['-device', 'loader,file=%s' % IMAGES['whowrote'],
                           '-replay-every', '20000'], [
        'break *0x1000100', 'continue', 'watch *(int*)0x2000100', 'reverse-continue',
        'p/x $pc', 'monitor info replay', 'kill'])
    assert 'nxemu: reverse: seq0 at pc=0x1000040 writes PA 0x2000100+4 (position 1)' in out, out
    assert values(out) == ['0x1000040'], out
    m = re.search(r'last reverse command: re-executed (\d+) steps', out)
    assert m and 900000 < int(m.group(1)) < 2 * 900000, out


@case
def who_wrote_this_word_far_back_is_not_slower_than_the_run():
    """whowrote.s with 45,000,000 passes: the store at position 1, then
    90,000,000 instructions.  With the default options, the forward
    `continue` to the end and then watch + reverse-continue in the same gdb
    session: the answer names the store and takes less time than the
    forward run (issue 39 asks for at most twice).  The scans run the
    sequencer's compiled blocks between the points they look for, as the
    forward run does where no breakpoint is; with the interpreter on every
    re-executed instruction the reverse command took 1.8 to 2.1 times the
    forward run on the 2-CPU test host, about 0.3 times with them."""
    need()
    if SNAPSHOTS:
        raise Skip('measures the default options')
    with open(os.path.join(HERE, 'whowrote.s')) as f:
        src = f.read().replace('blt.u32 r1, 450000, loop', 'blt.u32 r1, 45000000, loop')
    assert '45000000' in src
    path_s, path = os.path.join(IMG, 'farwho.s'), os.path.join(IMG, 'farwho.elf')
    with open(path_s, 'w') as f:
        f.write(src)
    subprocess.run([NXEMU_AS, path_s, '-o', path], check=True, timeout=60)
    out, rc = gdb_session(['-device', 'loader,file=%s' % path], [
        'break *0x1000100', 'python import time; t0 = time.monotonic()', 'continue',
        "python print('T-FWD %.3f' % (time.monotonic() - t0))", 'delete',
        'watch *(int*)0x2000100', 'python t0 = time.monotonic()', 'reverse-continue',
        "python print('T-REV %.3f' % (time.monotonic() - t0))", 'p/x $pc', 'kill'],
        timeout=300)
    assert 'nxemu: reverse: seq0 at pc=0x1000040 writes PA 0x2000100+4 (position 1)' in out, out
    assert values(out) == ['0x1000040'], out
    fwd = float(re.search(r'T-FWD (\S+)', out).group(1))
    rev = float(re.search(r'T-REV (\S+)', out).group(1))
    print('# forward continue %.3f s, reverse-continue %.3f s (%.2fx)' % (fwd, rev, rev / fwd))
    assert rev < fwd, (fwd, rev)


@case
def snapshots_are_thinned_within_replay_memory():
    """longloop.s (900,001 instructions) with a snapshot every 20,000 steps
    and -replay-memory set to room for three snapshots of this machine (their
    size, measured by a first session, depends on the build: about 3.3 MiB,
    more under the sanitizers): as the run grows every other one is dropped
    and the spacing doubles, so at the end the snapshots counted stay within
    the limit and are still spread over the whole run (the last in its
    second half), and reverse-continue to the last store still answers."""
    need()
    if SNAPSHOTS:
        raise Skip('sets its own snapshot options')
    img = ['-device', 'loader,file=%s' % IMAGES['longloop'], '-replay-every', '20000']
    out, rc = gdb_session(img, ['break *0x1000100', 'continue', 'monitor info replay', 'kill'])
    sizes = [int(x) for x in re.findall(r'^  snapshot \d+ at position \d+ \((\d+) KiB', out, re.M)]
    assert sizes, out
    limit = int(3.5 * max(sizes) * 1024)
    out, rc = gdb_session(img + ['-replay-memory', str(limit)], [
        'break *0x1000100', 'continue', 'monitor info replay', 'delete',
        'watch *(int*)0x2000000', 'reverse-continue', 'p $r1', 'kill'])
    m = re.search(r'^position 900001, -replay-budget \d+, (\d+) snapshots of (\d+) bytes '
                  r'\(-replay-memory %d\), every (\d+) steps$' % limit, out, re.M)
    assert m, out
    count, used, every = (int(x) for x in m.groups())
    assert 2 <= count and used <= limit and every > 20000, out
    pos = [int(x) for x in re.findall(r'^  snapshot \d+ at position (\d+) ', out, re.M)]
    assert len(pos) == count and pos[-1] > 900001 // 2, out
    assert 'seq0 at pc=0x1000080 writes PA 0x2000000+4 (position 899999)' in out, out
    assert values(out) == ['300000'], out  # the last pass, before its store

def main():
    return CASES.run(cleanup=IMG)


if __name__ == '__main__':
    sys.exit(main())
