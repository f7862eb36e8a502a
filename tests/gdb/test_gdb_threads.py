#!/usr/bin/env python3
"""The threads model (the stub's default, docs/gdb.rst "How the cores
appear in gdb"), in real gdb-multiarch sessions (TAP output).

usage: test_gdb_threads.py NXEMU NXEMU_AS SRCROOT

Every sequencer is a thread of process 1, attached at connect, as QEMU's
vCPUs: a plain `target remote` lists them all; every TPC is a thread of
process 2, which gdb attaches (`attach 2`).  The programs and the values
the sessions expect, worked out by hand from the sources:
  loop.s     seq0: r1 counts 1..5, the loop's store at 0x1000080
  spin.s     seq0: `add r1` at 0x1000000, `b spin` at 0x1000040
  spin1.s    seq1: `add r1` at 0x1100000, `b spin` at 0x1100040
  semwait.s  seq0: waits on sem1 at 0x1000000, then HALT at 0x1000040
  semsig1.s  seq1: counts r1 to 3, posts sem1 (0x1100080), then loops
             0x11000c0..0x1100100
  launchspin.s + tpck.s  seq0 launches tpck.s on tpc0 (S2 += 1 in each of
             its first three bundles, HALT at 0x60), waits for it, spins
"""
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import Stub, gdb_batch  # noqa: E402
from gdbtap import Cases, Skip, assemble, values  # noqa: E402

NXEMU, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
GDB = shutil.which('gdb-multiarch')
TMP = tempfile.mkdtemp(prefix='nxgdbthr')
IMAGES, NO_IMAGES = assemble(NXEMU_AS, HERE, TMP,
                             ('loop', 'spin', 'spin1', 'semwait', 'semsig1', 'launchspin', 'tpck'),
                             tpc=('tpck',))
CASES = Cases()
case = CASES.case


def need():
    if not GDB:
        raise Skip('gdb-multiarch not installed')
    if not IMAGES:
        raise Skip(NO_IMAGES)


def two_seq(seq0, seq1):
    return ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES[seq0],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES[seq1]]


def session(args, cmds, remote='target remote', timeout=60):
    """One gdb batch session (no script, no program file); (output, status)."""
    need()
    st = Stub(NXEMU, args)
    st.wait_listening()
    setup = ['set pagination off', remote + ' ' + st.path]
    return gdb_batch(GDB, st, setup + list(cmds), timeout=timeout)


@case
def connect_shows_every_sequencer_as_a_thread():
    out, rc = session(two_seq('loop', 'spin1'), ['info threads', 'info inferiors', 'kill'])
    assert 'Thread 1.1 (seq0 RUNNING) 0x0000000001000000' in out, out
    assert 'Thread 1.2 (seq1 RUNNING) 0x0000000001100000' in out, out
    assert 'process 2' not in out, out  # one inferior: no TPC attached
    assert rc == 0, (rc, out)


@case
def thread_2_shows_the_second_sequencer():
    # two stepi of thread 2 (seq1: add r1, b spin) leave seq0 where it was
    out, rc = session(two_seq('loop', 'spin1'), [
        'thread 2', 'stepi', 'stepi', 'p/x $pc', 'p $r1', 'info registers pc',
        'thread 1', 'p/x $pc', 'kill'])
    assert values(out) == ['0x1100000', '1', '0x1000000'], out
    assert 'pc             0x1100000' in out, out
    assert rc == 0, (rc, out)


@case
def breakpoint_of_seq1_stops_on_its_thread_while_seq0_is_selected():
    out, rc = session(two_seq('spin', 'spin1'), [
        'thread 1', 'break *0x1100040', 'continue', 'p $_thread', 'p/x $pc', 'p $r1',
        'thread 1', 'p/x $pc', 'kill'])
    assert 'Thread 2 hit Breakpoint 1, 0x0000000001100040' in out, out
    v = values(out)
    assert v[:3] == ['2', '0x1100040', '1'], out
    assert rc == 0, (rc, out)


@case
def boot_core_stop_while_another_thread_is_selected():
    """The issue's hang (#39, defect 1): seq0 stops at a breakpoint while
    another core is selected.  With every core a process, gdb hung for good
    (inferior 1 still "stopping quietly" from the connect); as threads of
    one inferior the stop is reported on seq0's thread and the session goes
    on (r1 = 1 on the loop's first store)."""
    for remote in ('target remote', 'target extended-remote'):
        out, rc = session(two_seq('loop', 'spin1'), [
            'thread 2', 'break *0x1000080', 'continue', 'p $_thread', 'p $r1', 'continue',
            'p $r1', 'kill'], remote=remote)
        assert 'Thread 1 hit Breakpoint 1, 0x0000000001000080' in out, (remote, out)
        assert values(out) == ['1', '1', '2'], (remote, out)
        assert rc == 0, (remote, rc, out)


@case
def step_over_a_wait_reports_only_the_stepped_thread():
    """The issue's defect 2: a breakpoint on seq0's waiting instruction
    (semwait.s, 0x1000000, where seq0 is at connect) and one on seq1 after
    it releases the wait.  gdb steps thread 1 alone over its breakpoint
    (vCont;s:p1.1) and took no other thread's stop for it (gdb 13 died with
    'finish_step_over: Assertion trap_expected').  The step completes; the
    continue after it reports seq1's stop with seq1's r1 = 3."""
    out, rc = session(two_seq('semwait', 'semsig1'), [
        'break *0x1100100', 'break *0x1000000', 'continue', 'p $_thread', 'p $r1', 'p/x $pc',
        'info threads', 'kill'])
    assert 'internal-error' not in out, out
    assert 'Thread 2 hit Breakpoint 1, 0x0000000001100100' in out, out
    assert values(out) == ['2', '3', '0x1100100'], out
    assert 'Thread 1.1 (seq0 HALTED)' in out, out  # its wait retired, then its halt
    assert rc == 0, (rc, out)


@case
def step_over_a_wait_held_by_a_thread_stopped_first():
    """The same with seq1 (spin1.s) stopping at its breakpoint before it could
    release seq0's wait (it never does): the step cannot finish and is
    reported on seq0 with a line naming seq1; with seq0's breakpoint
    disabled the next continue reports seq1's stop."""
    out, rc = session(two_seq('semwait', 'spin1'), [
        'break *0x1100040', 'break *0x1000000', 'continue', 'p $_thread', 'p/x $pc',
        'info threads', 'disable 2', 'continue', 'p $_thread', 'p/x $pc', 'kill'])
    assert 'internal-error' not in out, out
    assert 'nxemu: seq0 cannot go on: it waits for seq1 at 0x1100040' in out, out
    assert 'Thread 1.1 (seq0 BLOCKED sem[1] ge 1' in out, out  # in its wait
    assert 'Thread 2 hit Breakpoint 1, 0x0000000001100040' in out, out
    assert values(out) == ['1', '0x1000000', '2', '0x1100040'], out
    assert rc == 0, (rc, out)


@case
def blocked_thread_names_its_wait():
    # seq0 waits on sem1, which nobody posts; seq1 stops at its `b`
    out, rc = session(two_seq('semwait', 'spin1'), [
        'break *0x1100040', 'continue', 'continue', 'info threads', 'kill'])
    assert 'Thread 1.1 (seq0 BLOCKED sem[1] ge 1' in out, out
    assert 'Thread 1.2 (seq1 RUNNING)' in out, out
    assert rc == 0, (rc, out)


@case
def tpc_threads_have_tpc_registers_after_a_launch():
    """Two TPCs are threads 2.1 and 2.2 of process 2 once gdb attaches it;
    tpc0 stops at bundle 0x20 of the kernel seq0 launched, with S2 = 1 (one
    add retired), and shows the TPC registers; seq0's thread keeps the
    sequencer's."""
    args = ['-machine', 'seq=1,tpc=2', '-device', 'loader,file=' + IMAGES['launchspin'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpck']]
    out, rc = session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'info threads', 'break *0x20', 'continue',
        'p $S2', 'p/x $pc', 'info registers S2', 'thread 2.2', 'p $S2', 'thread 1.1', 'p $S2',
        'p $r1', 'info threads', 'kill inferiors 1 2'], remote='target extended-remote')
    assert 'Thread 2.1 (tpc0 RESET)' in out and 'Thread 2.2 (tpc1 RESET)' in out, out
    assert 'Thread 2.1 hit Breakpoint 1, 0x00000020' in out, out
    assert values(out) == ['1', '0x20', '0', 'void', '0'], out
    assert 'S2             0x1' in out, out
    assert 'Thread 2.1 (tpc0 RUNNING)' in out, out
    assert 'Thread 1.1 (seq0 BLOCKED sem[5] ge 1' in out, out
    assert "Remote 'g' packet reply" not in out, out


def script_session(args, cmds, source='launchspin'):
    """A batch session whose program is SOURCE assembled with nxemu-as -g,
    from which gdb auto-loads scripts/nxemu-gdb.py before the connect."""
    need()
    import subprocess
    elf = os.path.join(TMP, source + '-g.elf')
    subprocess.run([NXEMU_AS, '-g', os.path.join(HERE, source + '.s'), '-o', elf], check=True)
    st = Stub(NXEMU, args)
    st.wait_listening()
    setup = ['set pagination off', 'target extended-remote ' + st.path]
    return gdb_batch(GDB, st, setup + list(cmds),
                     files=['-iex', 'add-auto-load-safe-path ' + TMP, elf])


LAUNCH_ARGS = ['-machine', 'seq=1,tpc=2', '-device', 'loader,file=%s' % os.path.join(
    TMP, 'launchspin-g.elf'), '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % os.path.join(
    TMP, 'tpck.elf')]


@case
def tpcs_attached_at_connect_by_the_script():
    """With scripts/nxemu-gdb.py loaded before the connect (here from the
    program's .debug_gdb_scripts), the TPCs' process is inferior 2 right
    after `target extended-remote`: a breakpoint set from it stops tpc0 at
    bundle 0x20 of the launched kernel (S2 = 1).  Inferior 1 is out of its
    quiet state: seq0's breakpoint (0x10000c0, after the kernel's end), hit
    after a continue from inferior 2 alone, is reported (before, the stub
    held it back until inferior 1 was continued: gdb waited for good).
    The continue between reports tpc0's halt."""
    out, rc = script_session(LAUNCH_ARGS, [
        'info inferiors', 'info threads', 'break *0x10000c0', 'inferior 2', 'break *0x20',
        'continue', 'p $_inferior', 'p $S2', 'continue', 'continue', 'p $_inferior',
        'p/x $pc', 'kill inferiors 1 2'])
    assert 'inferior 2: tpc0, tpc1' in out, out
    assert 'Thread 2.1 (tpc0 RESET)' in out and 'Thread 2.2 (tpc1 RESET)' in out, out
    assert 'Thread 2.1 hit Breakpoint 2, 0x00000020' in out, out
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out  # the second continue
    assert 'Thread 1.1 hit Breakpoint 1, spin () at' in out, out
    assert values(out) == ['2', '1', '1', '0x10000c0'], out
    assert "Remote 'g' packet reply" not in out, out


@case
def manual_attach_after_the_script_attached_at_connect():
    """The manual recipe (add-inferior, inferior 2, attach 2) in a session
    where the script attached the TPCs at connect: `attach 2` is refused
    with one line instead of gdb killing the process, and the recipe goes
    on in inferior 2 (tpc0 at bundle 0x20, S2 = 1)."""
    out, rc = script_session(LAUNCH_ARGS, [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x20', 'continue', 'p $S2',
        'kill inferiors 1 2'])
    assert 'nxemu: inferior 2 is process 2 already, attached at connect' in out, out
    assert 'Kill it?' not in out, out
    assert 'Thread 2.1 hit Breakpoint 1, 0x00000020' in out, out
    assert values(out) == ['1'], out


@case
def unknown_cores_option_is_refused():
    st = Stub(NXEMU, ['-device', 'loader,file=' + IMAGES['loop']] if IMAGES else [],
              cores='vcpus')
    rc = st.wait(timeout=20)
    err = st.stderr.decode(errors='replace')
    assert rc == 125, (rc, err)
    assert err.strip().endswith("unknown option 'cores=vcpus' (cores=threads or "
                                "cores=processes)"), err
    assert len(err.strip().splitlines()) == 1, err


sys.exit(CASES.run(cleanup=TMP))
