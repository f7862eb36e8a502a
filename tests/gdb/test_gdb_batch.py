#!/usr/bin/env python3
"""Batch sessions of the stock gdb-multiarch against real images (TAP output).

usage: test_gdb_batch.py NXEMU NXEMU_AS SRCROOT [NXEMU_TPC_RUN]

The images (tests/gdb/*.s) are assembled with nxemu-as into a temporary
directory.  The emulator is nxemu itself, run with -gdb as users run it.
Every case is skipped with a reason when gdb-multiarch is missing.

Expected values come from the images' comments and the specs: loop.s counts
r1 = 1..5 and stores r1 to 0x2000000 each pass (records are 64 bytes, so
the loop body is at 0x1000040..0x10000c0); fault.s has an undefined opcode
at 0x1000040 (INVALID_OPCODE = SIGILL, machine.md §9.1).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import ProtocolError, Stub, gdb_batch  # noqa: E402
from gdbtap import Cases, Skip, assemble, bigloop, values  # noqa: E402

# These sessions drive the per-core-process model (-gdb DEV,cores=processes,
# docs/gdb.rst): each core its own gdb process, attached one by one.
Stub.CORES = 'processes'

NXEMU, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
TPC_RUN = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
GDB = shutil.which('gdb-multiarch')
SCRIPT = os.path.join(SRCROOT, 'scripts', 'nxemu-gdb.py')
IMG = tempfile.mkdtemp(prefix='nxgdbbatch')


IMAGES, NO_IMAGES = assemble(
    NXEMU_AS, HERE, IMG, ('loop', 'fault', 'spin', 'second', 'launch', 'tpck', 'launchst', 'tpcst',
                          'dmaw', 'dmaiw', 'semwait', 'spin1', 'callf', 'timing', 'timing1',
                          'longloop', 'semsig1', 'seqw1', 'launchst2'),
    tpc=('tpck', 'tpcst'))


EMU = NXEMU


def need():
    if not GDB:
        raise Skip('gdb-multiarch not installed')
    if not IMAGES:
        raise Skip(NO_IMAGES)


def loop_args(extra=()):
    return ['-device', 'loader,file=%s' % IMAGES['loop']] + list(extra)


def gdb_session(args, cmds, load_script=False, timeout=90, elf=None, binary=None):
    """Run one gdb batch session against nxemu (or binary, e.g. nxemu-tpc-run),
    gdb given ELF as its program file when set; returns (gdb output, status,
    stderr)."""
    st = Stub(binary or EMU, args)
    st.wait_listening()
    setup = ['set pagination off', 'target extended-remote %s' % st.path]
    if load_script:
        setup.append('source %s' % SCRIPT)
    out, rc = gdb_batch(GDB, st, setup + list(cmds), files=[elf] if elf else [], timeout=timeout)
    return out, rc, st.stderr.decode(errors='replace')


CASES = Cases()
case = CASES.case


@case
def registers_by_real_name():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'p $r5', 'set $r5 = 7', 'p $r5', 'p $x5', 'p $t0', 'p/x $pc',
        'info registers neuron', 'kill'])
    v = values(out)
    assert v[:5] == ['0', '7', '7', '7', '0x1000000'], (v, out)
    assert re.search(r'^r63\s+0x0', out, re.M), out
    assert re.search(r'^retired\s+0x0', out, re.M), out
    assert rc == 0, rc


@case
def memory_read_write():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'set {unsigned int}0x2000000 = 0xdeadbeef', 'x/1xw 0x2000000', 'x/2xw 0x10',
        'monitor xp 0x2000000 4', 'kill'])
    assert re.search(r'0x2000000:\s+0xdeadbeef', out), out
    assert 'Cannot access memory at address 0x10' in out, out
    assert '0x0000000002000000: ef be ad de' in out, out
    assert rc == 0


@case
def stepi_through_a_branch():
    need()
    # mov (0x1000000) -> add -> tst -> blt taken back to 0x1000040
    out, rc, _ = gdb_session(loop_args(), [
        'stepi', 'p/x $pc', 'stepi', 'p/x $pc', 'stepi', 'p/x $pc', 'stepi', 'p/x $pc',
        'p $r1', 'x/1xw 0x2000000', 'kill'])
    assert values(out) == ['0x1000040', '0x1000080', '0x10000c0', '0x1000040', '1'], out
    assert re.search(r'0x2000000:\s+0x00000001', out), out


@case
def breakpoint_in_a_loop():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'break *0x1000040', 'continue', 'p $r1', 'continue', 'p $r1', 'ignore 1 100',
        'continue', 'info breakpoints'])
    assert values(out)[:2] == ['0', '1'], out
    assert 'breakpoint already hit 5 times' in out, out
    assert '[Inferior 1 (process 1) exited normally]' in out, out
    assert rc == 0, rc


@case
def watchpoint_on_tensorstore_target():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'watch *(unsigned int*)0x2000000', 'continue', 'p/x $pc', 'continue', 'p $r1',
        'delete', 'continue'])
    assert re.search(r'Old value = 0\nNew value = 1\n', out), out
    assert re.search(r'Old value = 1\nNew value = 2\n', out), out
    # Reported before the store (tst at 0x1000080): gdb steps over it and
    # shows the next instruction, 0x10000c0: the core checks the watchpoint
    # before the store commits (nx_debug_watch_hit), so gdb's extra step
    # executes the store and stops after it.
    assert values(out)[0] == '0x10000c0', out
    assert values(out)[1] == '2', out
    assert '[Inferior 1 (process 1) exited normally]' in out, out
    assert rc == 0


@case
def fault_reported_as_sigill():
    need()
    out, rc, err = gdb_session(['-device', 'loader,file=%s' % IMAGES['fault']], [
        'continue', 'p/x $pc', 'p $fault_code', 'p/x $fault_pc', 'continue'])
    assert 'Program received signal SIGILL' in out, out
    assert values(out) == ['0x1000040', '1', '0x1000040'], out
    assert 'nxemu: fault: core=0 code=INVALID_OPCODE(1)' in out, 'fault line shown in gdb'
    assert 'Program terminated with signal SIGILL' in out, out
    assert rc == 132, rc
    assert 'nxemu: fault: core=0 code=INVALID_OPCODE(1) info=0 pc=0x0000000001000040' in err


@case
def program_elf_loaded_in_gdb():
    need()
    # gdb given the ELF first: it must accept the target (e_flags 2 reads
    # as the single-float ABI: the stub describes an FPU, with no values)
    elf = IMAGES['callf']
    out, rc, _ = gdb_session(['-device', 'loader,file=%s' % elf], [
        'info symbol $pc', 'p $ft0', 'until *0x10000c0', 'p/x $pc', 'p $r1', 'p $r2',
        'kill'], elf=elf)
    assert 'bfd requires' not in out and 'Remote' not in out, out
    assert 'start in section .text' in out, out
    # until stops inside start at the blt, after one call (r2 = 2): 'loop'
    # is a label, not a function whose frame would never match
    assert values(out) == ['<unavailable>', '0x10000c0', '1', '2'], out
    assert rc == 0, rc


@case
def call_return_through_the_link_register():
    need()
    # ra is the link r63:r62: bt names the caller, finish returns to the
    # instruction after the call, nexti steps over a call, next runs to the
    # end of start without stopping in twice
    elf = IMAGES['callf']
    out, rc, _ = gdb_session(['-device', 'loader,file=%s' % elf], [
        'break *0x1001040', 'continue', 'bt', 'p/x $ra', 'finish', 'p/x $pc', 'p $r3',
        'delete', 'break *0x1000080', 'continue', 'p $r1', 'nexti', 'p/x $pc', 'p $r2',
        'delete', 'next', 'p $r2'], elf=elf)
    assert re.search(r'#0  0x0*1001040 in twice \(\)\n#1  0x0*10000c0 in start \(\)', out), out
    # $ra, pc after finish, r3, r1 at the 2nd call, pc after nexti, r2
    assert values(out)[:6] == ['0x10000c0', '0x10000c0', '1', '2', '0x10000c0', '4'], out
    # next: no line info, so "until exit from function start": the program ends
    assert 'exited normally' in out, out
    assert rc == 0, rc


def timing_args(log):
    return ['-machine', 'seq=2,quantum=16', '-d', 'machine', '-D', log,
            '-device', 'loader,file=%s' % IMAGES['timing'],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES['timing1']]


def run_end_vtime(log):
    with open(log) as f:
        m = re.findall(r'^machine: run ended: reason=(\w+) .*vtime=(\d+)$', f.read(), re.M)
    assert len(m) == 1, m
    return m[0][0], int(m[0][1])


# timing.s: seq0 retires 1 (dma) + 1 (mov) + 100 * 3 (loop) + 1 (nop, its
# DMA of cost 33 long done) + 1 (halt) = 304 one-cycle instructions and is
# the last core to end (seq1: 1 + 80 * 2 + 1 = 162), so the run ends at 304.
TIMING_END = ('NORMAL_END', 304)


@case
def debugger_stops_keep_the_timing():
    need()
    log = os.path.join(IMG, 'timing0.log')
    p = subprocess.run([NXEMU] + timing_args(log), capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert run_end_vtime(log) == TIMING_END
    # three breakpoint stops (each stepped over by gdb) and three stepi
    log = os.path.join(IMG, 'timing1.log')
    out, rc, _ = gdb_session(timing_args(log), [
        'break *0x10000c0', 'continue', 'continue', 'continue', 'p $r1', 'stepi', 'stepi',
        'stepi', 'p/x $pc', 'delete', 'continue'])
    assert values(out) == ['3', '0x10000c0'], out
    assert rc == 0, rc
    assert run_end_vtime(log) == TIMING_END, ('a debugged run ended at another time', out)
    # stops in the other core's process, then in seq0's: the same end
    log = os.path.join(IMG, 'timing2.log')
    out, rc, _ = gdb_session(timing_args(log), [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x1100080', 'continue', 'continue',
        'p $r1', 'delete', 'inferior 1', 'break *0x1000080', 'continue', 'p $r1', 'delete',
        'continue', 'inferior 2', 'continue'])
    # seq1's second stop on its blt: r1 = 2 (round 0, after seq0's whole
    # slice: dma, mov, four loop passes and two adds of the fifth, r1 = 5);
    # seq0 then stops on its add at the start of round 1 with r1 still 5
    assert values(out) == ['2', '5'], out
    assert run_end_vtime(log) == TIMING_END, ('a debugged run ended at another time', out)


@case
def timing_kept_at_the_protocol_level():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # the packets gdb sends for a breakpoint stop: Z0, c, then z0, s, Z0, c
    log = os.path.join(IMG, 'timing3.log')
    st = Stub(EMU, timing_args(log))
    try:
        c = st.connect()
        assert c.cmd('Z0,10000c0,4') == b'OK'
        for _ in range(3):
            r = c.cmd('vCont;c')
            assert r.startswith(b'T05') and b'swbreak' in r, r
            assert c.cmd('z0,10000c0,4') == b'OK'
            assert c.cmd('vCont;s:p1.1').startswith(b'T05')
            assert c.cmd('Z0,10000c0,4') == b'OK'
        assert c.cmd('p22') == b'03000000'   # r1 = 3
        assert c.cmd('z0,10000c0,4') == b'OK'
        assert c.cmd('D;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr
    assert run_end_vtime(log) == TIMING_END


def two_spinners():
    return ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['spin'],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES['spin1']]


@case
def scheduler_locking_runs_only_that_core():
    need()
    # spin.s (seq0) and spin1.s (seq1) count r1 in 2-instruction loops.
    # Round 0: seq0 runs its 64 cycles (r1 = 32), then seq1 stops on its
    # 'b' after one add (r1 = 1).  Locked, 61 more stops of seq1 (r1 = 62)
    # take it past its 32 passes per round into round 1, where seq0 is held
    # and stays at 32; unlocked, seq0 runs again in round 2 and stops on its
    # own 'b' with r1 = 33.
    out, rc, _ = gdb_session(two_spinners(), [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x1100040', 'continue', 'p $r1',
        'set scheduler-locking on', 'ignore 1 60', 'continue', 'p $r1', 'inferior 1', 'p $r1',
        'set scheduler-locking off', 'delete', 'break *0x1000040', 'continue', 'p $r1',
        'p $_inferior', 'kill', 'inferior 2', 'kill'])
    assert values(out) == ['1', '62', '32', '33', '1'], out
    assert rc == 0, rc


@case
def scheduler_locking_stall_is_reported():
    need()
    # seq0 waits on sem1, which nothing posts; locked, seq1 is held: the
    # continue stops at once with a line instead of spinning forever
    args = ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['semwait'],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES['spin1']]
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'set scheduler-locking on',
        'continue', 'p/x $pc', 'inferior 2', 'p $r1', 'kill', 'inferior 1', 'kill'])
    assert 'nxemu: scheduler-locking: seq0 cannot progress while the other cores are held' \
        in out, out
    assert values(out) == ['0x1000000', '0'], out
    assert rc == 0, rc


@case
def vcont_thread_and_stop_actions():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # vCont;c:pP.T runs that core only; vCont;t answers at once (T00) and
    # runs nothing; c:pP.-1 is the whole machine (gdb's default)
    st = Stub(EMU, two_spinners())
    try:
        c = st.connect()
        assert c.cmd('vCont?') == b'vCont;c;C;s;S;t'
        assert c.cmd('vAttach;2').startswith(b'T05')
        assert c.cmd('Hgp2.1') == b'OK'
        assert c.cmd('Z0,1100040,4') == b'OK'
        r = c.cmd('vCont;c:p2.1')
        assert r.startswith(b'T05') and b'thread:p2.1;' in r, r
        assert c.cmd('p22') == b'01000000'            # seq1's r1
        assert c.cmd('Hgp1.1') == b'OK'
        assert c.cmd('p22') == b'00000000', 'seq0 held: its slice of round 0 skipped'
        r = c.cmd('vCont;t:p1.1')
        assert r.startswith(b'T00') and b'thread:p1.1;' in r, r
        assert c.cmd('p20') == b'0000000100000000' and c.cmd('p22') == b'00000000'
        assert c.cmd('Hgp2.1') == b'OK'
        assert c.cmd('p22') == b'01000000', 'vCont;t ran nothing'
        assert c.cmd('z0,1100040,4') == b'OK'
        assert c.cmd('Hgp1.1') == b'OK'
        assert c.cmd('Z0,1000040,4') == b'OK'
        r = c.cmd('vCont;c:p1.-1')
        assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
        assert c.cmd('p22') == b'01000000', 'seq0 ran in round 1'
        assert c.cmd('vKill;2') == b'OK' and c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


# Device registers (machine.md §1, §2.1, §4, §5): seq0's own NX block at
# Neuron 0x100000 (NQ0_BASE +0x400, NQ0_SIZE +0x408), EVSEM SEM_READ[9] at
# PA 0x2802701024, DMA engine 0's COMPLETED (u64) at 0x2803800008, BYTES
# at +0x10, the test device at 0x2805000000 (reads 0).
MMIO_CHECKS = ['x/2xw 0x100400', 'x/xw 0x100408', 'x/xw 0x2802701024',
               'monitor xp 0x2802701024 4', 'x/2xg 0x2803800008', 'x/xw 0x2805000000',
               'monitor x seq0 0x100404 8', 'x/xb 0x100402', 'x/xw 0x100840']


@case
def mmio_readable_from_gdb():
    need()
    # dmaw.s after four instructions: the DMA of 16 bytes completed (sem9 =
    # 1, COMPLETED = 1, BYTES = 16), NQ0_BASE = 0x02100000, NQ0_SIZE = 2.
    # Reading twice gives the same, and reading the test device does not
    # end the run: it still ends with the program's PASS.
    out, rc, _ = gdb_session(dmaw_args(), ['stepi 4'] + MMIO_CHECKS + MMIO_CHECKS + [
        'continue'])
    once = out[out.index('0x100400:'):]
    for text in (r'0x100400:\s+0x02100000\s+0x00000000', r'0x100408:\s+0x00000002',
                 r'0x2802701024:\s+0x00000001', r'0x0000002802701024: 01 00 00 00',
                 r'0x2803800008:\s+0x0000000000000001\s+0x0000000000000010',
                 r'0x2805000000:\s+0x00000000',
                 r'0x0000000000100404: 00 00 00 00 02 00 00 00',
                 r'0x100402:\s+0x10', r'Cannot access memory at address 0x100840'):
        assert len(re.findall(text, once)) == 2, (text, out)
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def mmio_at_the_protocol_level():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    st = Stub(EMU, dmaw_args())
    try:
        c = st.connect()
        for _ in range(4):
            assert c.cmd('vCont;s:p1.1').startswith(b'T05')
        assert c.cmd('m100400,c') == b'000010020000000002000000'
        assert c.cmd('m2802701024,4') == b'01000000'
        assert c.cmd('m2802701025,2') == b'0000', 'bytes of a word'
        assert c.cmd('m2803800000,8') == b'0000000000000000', 'STATUS: engine idle'
        assert len(c.cmd('m100830,20')) == 2 * 0x10, 'the readable prefix: the block ends at 0x100840'
        assert c.cmd('m100840,4') == b'E14'
        # writes reach memory only: a device write would act (a doorbell, a
        # FINISHER) while the machine is stopped
        assert c.cmd('M2802701024,4:05000000').startswith(b'E')
        assert c.cmd('M100400,4:00000000').startswith(b'E')
        assert c.cmd('m2802701024,4') == b'01000000'
        assert c.cmd('Z2,100400,4').startswith(b'E'), 'own NX block cannot be watched'
        assert c.cmd('vCont;c').startswith(b'W00')
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def second_sequencer_and_tpc_in_one_session():
    need()
    args = ['-machine', 'seq=2,tpc=1'] + loop_args(
        ['-device', 'loader,file=%s,cpu-num=1' % IMAGES['second']])
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'p/x $pc', 'stepi', 'p $r3',
        'add-inferior', 'inferior 3', 'attach 3', 'set $V3.f32[5] = 2.5', 'p $V3.f32[5]',
        'set $S5 = 9', 'p $S5', 'p $I2[4]', 'info inferiors',
        'inferior 1', 'p/x $pc', 'monitor info cores', 'kill'])
    assert values(out) == ['0x1100000', '42', '2.5', '9', '0', '0x1000000'], out
    assert re.search(r'3\s+process 3', out), out
    assert 'pid 2 seq1 state=RUNNING pc=0x0000000001100040' in out, out


@case
def stop_in_another_inferior_selects_its_core():
    need()
    # seq1 (second.s) sets r3 = 42 and halts (seq0 spins) while gdb
    # has inferior 1 selected: gdb switches to thread 2.1 on the stop reply
    # and sends no Hg, so the stub must have made seq1 current itself.
    args = ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['spin'],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES['second']]
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'p $r3', 'continue',
        'p $_inferior', 'p $r3', 'set $r7 = 9', 'p $r7', 'inferior 1', 'p $r7', 'kill'])
    assert 'seq1 halted' in out, out
    assert values(out) == ['0', '2', '42', '9', '0'], out


@case
def tpc_breakpoint_step_and_kernel_end():
    need()
    # launch.s starts tpck.s on TPC 0 (pid 2 with one sequencer); tpck.s
    # adds 1 to S2 in bundles 0x00, 0x20, 0x40 and halts at 0x60
    args = ['-device', 'loader,file=%s' % IMAGES['launch'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpck']]
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x40', 'continue', 'p $S2',
        'p/x $pc', 'x/1i $pc', 'stepi', 'p $S2', 'p/x $pc', 'continue', 'continue'],
        load_script=True)
    assert 'Thread 2.1 hit Breakpoint 1, 0x00000040' in out, out
    assert values(out) == ['2', '0x40', '3', '0x60'], out
    assert re.search(r'=> 0x40:\s+nop; add\.i32 S2, S2, 0x1; nop; nop', out), out
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def monitor_info_tpc_counts_mid_kernel():
    need()
    # tpck.s at its bundle 0x40 has retired 0x00 and 0x20 (one cycle each,
    # tpc.md §6): 2; one stepi more: 3; at its end the three adds and the
    # HALT: 4 (the latched CYCLES/BUNDLES)
    args = ['-device', 'loader,file=%s' % IMAGES['launch'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpck']]
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x40', 'continue',
        'monitor info tpc tpc0', 'stepi', 'monitor info tpc tpc0', 'continue',
        'monitor info tpc tpc0', 'continue'])
    counts = re.findall(r'^tpc0: state=(\w+) .* cycles=(\d+) bundles=(\d+)$', out, re.M)
    assert counts == [('RUNNING', '2', '2'), ('RUNNING', '3', '3'), ('HALTED', '4', '4')], out
    assert rc == 0, rc


def tpc_store_args():
    # launchst.s describes tensor 0 (64 x i32 at PA 0x101000 = kernel offset
    # 0x1000) and starts tpcst.s on TPC 0 (pid 2), whose bundle 0x20 stores
    # V1 = 7 to all 64 lanes; 0x40 is an empty bundle, 0x60 halts.
    return ['-device', 'loader,file=%s' % IMAGES['launchst'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpcst']]


@case
def tpc_tensor_store_watchpoint_stops_before_the_bundle():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # At the protocol level: the stop is reported with the pc ON the storing
    # bundle and memory still old (docs/gdb.rst, "Watchpoints"); stepping the
    # bundle then stores.  Lane 1 is watched (kernel offset 0x1004).
    st = Stub(EMU, tpc_store_args())
    try:
        c = st.connect()
        assert c.cmd('vAttach;2').startswith(b'T05')
        assert c.cmd('Hgp2.1') == b'OK'
        assert c.cmd('Z2,1004,4') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'thread:p2.1;' in r and b'watch:1004;' in r, r
        assert c.cmd('p20') == b'20000000', 'pc on the st_tnsr bundle'
        assert c.cmd('m1000,8') == b'00' * 8, 'no lane stored yet'
        assert c.cmd('z2,1004,4') == b'OK'
        assert c.cmd('vCont;s:p2.1').startswith(b'T05')
        assert c.cmd('p20') == b'40000000'
        assert c.cmd('m1000,8') == b'07000000' * 2
        assert c.cmd('m10fc,4') == b'07000000', 'lane 63 stored too'
        assert c.cmd('D;2') == b'OK' and c.cmd('D;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr  # the run ends with PASS


def dmaw_args():
    return ['-device', 'loader,file=%s' % IMAGES['dmaw']]


@case
def dma_watchpoint_stops_before_the_transfer():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # dmaw.s: the DMA issued at 0x1000000 copies 0x11,0x22,0x33,0x44 to
    # 0x2000200 while the core waits on sem 9 at 0x1000040.  A watch on the
    # third destination word stops before any byte moves, reported on the
    # process that set it, with the core's pc where it stands (the wait).
    st = Stub(EMU, dmaw_args())
    try:
        c = st.connect()
        assert c.cmd('vAttach;1').startswith(b'T05')
        assert c.cmd('Hgp1.1') == b'OK'
        assert c.cmd('Z2,2000208,4') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'thread:p1.1;' in r and b'watch:2000208;' in r, r
        assert c.cmd('p20') == b'4000000100000000', 'pc on the waiting nop'
        assert c.cmd('m2000200,10') == b'00' * 16, 'nothing moved yet (atomic transfer)'
        # on continue the transfer completes without stopping before it
        # again; a write watchpoint is reported once more, after the write
        # (gdb needs the new value to decide a write watchpoint)
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'watch:2000208;' in r, r
        assert c.cmd('m2000200,10') == b'11000000220000003300000044000000'
        assert c.cmd('z2,2000208,4') == b'OK'
        assert c.cmd('Z2,2100008,8') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'watch:2100008;' in r, r
        assert c.cmd('m2000200,10') == b'11000000220000003300000044000000'
        # NOTIFY: stopped on the instruction, ring entry untouched
        assert c.cmd('p20') == b'0001000100000000', 'pc on NOTIFY'
        assert c.cmd('m2100000,10') == b'00' * 16
        assert c.cmd('z2,2100008,8') == b'OK'
        assert c.cmd('vCont;s:p1.1').startswith(b'T05')
        assert c.cmd('p20') == b'4001000100000000'
        # entry {pc = 0x1000100, payload 0x55, core 0, queue 0, kind 1}
        assert c.cmd('m2100000,10') == b'0001000100000000' + b'5500000000000001', 'entry'
        assert c.cmd('D;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr  # the run ends with PASS


@case
def step_over_a_wait_runs_the_dma():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # dmaw.s: stepping the nop that waits for the DMA's semaphore runs the
    # machine (the engine) until the nop retires, then stops before the next
    # instruction, with the data moved.
    st = Stub(EMU, dmaw_args())
    try:
        c = st.connect()
        assert b'thread:p1.1;' in c.cmd('vCont;s:p1.1')
        assert c.cmd('p20') == b'4000000100000000'
        r = c.cmd('vCont;s:p1.1')
        assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
        assert c.cmd('p20') == b'8000000100000000', 'one instruction past the wait'
        assert c.cmd('m2000200,10') == b'11000000220000003300000044000000'
        assert c.cmd('p66') == b'0200000000000000', 'retired: the DMA and the nop'
        r = c.cmd('vCont;c')
        assert r.startswith(b'W00'), r
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def ctrl_c_interrupts_a_step_that_waits():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # semwait.s waits on sem1 forever while seq1 spins: the step runs until
    # gdb interrupts it
    st = Stub(EMU, ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['semwait'],
                    '-device', 'loader,file=%s,cpu-num=1' % IMAGES['spin1']])
    try:
        c = st.connect()
        c.send(b'vCont;s:p1.1')
        time.sleep(0.3)
        c.send_raw(b'\x03')
        r = c.reply()
        assert r.startswith(b'T02') and b'thread:p1.1;' in r, r
        assert c.cmd('p20') == b'0000000100000000', 'still on the wait'
        assert c.cmd('vKill;1') == b'OK'
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def stepi_over_a_wait_in_gdb():
    need()
    out, rc, _ = gdb_session(dmaw_args(), [
        'stepi', 'stepi', 'p/x $pc', 'x/4xw 0x2000200', 'stepi', 'p/x $pc', 'kill'])
    v = values(out)
    assert v[:1] == ['0x1000080'], out
    assert re.search(r'0x2000200:\s+0x00000011\s+0x00000022\s+0x00000033\s+0x00000044', out), out
    assert v[1:2] == ['0x10000c0'], out


@case
def dma_rwatch_reported_once():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # A read watchpoint on the DMA source: one report, before; continuing
    # (watchpoint still set) completes the transfer and runs to the end.
    st = Stub(EMU, dmaw_args())
    try:
        c = st.connect()
        assert c.cmd('vAttach;1').startswith(b'T05')
        assert c.cmd('Hgp1.1') == b'OK'
        assert c.cmd('Z3,2000100,4') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'rwatch:2000100;' in r, r
        assert c.cmd('m2000200,4') == b'00000000'
        r = c.cmd('vCont;c')
        assert r.startswith(b'W00'), r
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def dmai_index_array_watch_stops_before_issue():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    # dmaiw.s: the DMA_INDIRECT at 0x1000040 reads its index array at SBUF
    # 0x2000000100 when it issues; a read watchpoint there stops with the pc
    # on it and nothing issued (the destination is still zero after the
    # engine would have finished).
    st = Stub(EMU, ['-device', 'loader,file=%s' % IMAGES['dmaiw']])
    try:
        c = st.connect()
        assert c.cmd('vAttach;1').startswith(b'T05')
        assert c.cmd('Hgp1.1') == b'OK'
        assert c.cmd('Z3,2000000100,10') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'T05') and b'rwatch:2000000100;' in r, r
        assert c.cmd('p20') == b'4000000100000000', c.cmd('p20')  # pc = 0x1000040
        assert c.cmd('m2000200,4') == b'00000000'
        assert c.cmd('z3,2000000100,10') == b'OK'
        r = c.cmd('vCont;c')
        assert r.startswith(b'W00'), r
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def dma_watchpoint_in_gdb():
    need()
    out, rc, _ = gdb_session(dmaw_args(), [
        'watch *(unsigned int*)0x2000208', 'continue', 'p/x $pc', 'x/1xw 0x2000208', 'delete',
        'continue'])
    assert re.search(r'Old value = 0\nNew value = 51\n', out), out
    assert re.search(r'0x2000208:\s+0x00000033', out), out
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def tpc_tensor_store_watchpoint_in_gdb():
    need()
    out, rc, _ = gdb_session(tpc_store_args(), [
        'add-inferior', 'inferior 2', 'attach 2', 'watch *(unsigned int*)0x1004', 'continue',
        'p/x $pc', 'x/1xw 0x1000', 'delete', 'continue', 'continue'])
    # gdb stops, steps the storing bundle with the watchpoint removed and
    # prints the change with the pc on the next bundle, 0x40 (a report after
    # the store would make gdb step one bundle more, to the HALT at 0x60).
    assert re.search(r'Old value = 0\nNew value = 7\n', out), out
    assert values(out)[:1] == ['0x40'], out
    assert re.search(r'0x1000:\s+0x00000007', out), out
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out
    assert 'exited normally' in out, out
    assert rc == 0, rc


@case
def monitor_commands():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'monitor help', 'monitor info registers seq0', 'monitor info tlb seq0',
        'monitor info mtree', 'monitor info tpc', 'monitor info semaphores',
        'monitor x seq0 0x1000000 4', 'monitor info registers seq9', 'kill'])
    assert 'info registers CORE' in out
    assert 'pc=0x0000000001000000' in out, out
    assert 'seq0: wt_base=0x0000000000000000' in out, out
    assert 'ram   hbm' in out
    assert "monitor: no core 'seq9'" in out


@case
def disassembler_script():
    need()
    out, rc, _ = gdb_session(loop_args(), [
        'x/3i $pc', 'disassemble 0x1000000,0x1000100', 'kill'], load_script=True)
    assert re.search(r'=> 0x1000000:\s+mov\.u32 r1, 0x0', out), out
    assert re.search(r'0x1000040:\s+add\.u32 r1, r1, 0x1', out), out
    assert re.search(r'0x00000000010000c0:\s+blt\.u32', out), out


@case
def attach_all_command():
    need()
    args = ['-machine', 'seq=2,tpc=1'] + loop_args()
    out, rc, _ = gdb_session(args, ['nxemu-attach-all', 'info inferiors', 'kill'],
                             load_script=True)
    assert 'inferior 2: seq1' in out and 'inferior 3: tpc0' in out, out


@case
def detach_lets_the_run_finish():
    need()
    out, rc, err = gdb_session(loop_args(), ['stepi', 'detach'])
    assert rc == 0, (rc, err)   # the loop ends with a FINISHER PASS


@case
def attach_and_connect_again():
    need()
    # detach lets the machine run on; "attach 1" stops it again, and after a
    # disconnect a new "target extended-remote" is served (as QEMU does)
    st = Stub(EMU, ['-device', 'loader,file=%s' % IMAGES['spin']])
    st.wait_listening()
    target = 'target extended-remote %s' % st.path
    argv = [GDB, '-nx', '-batch', '-ex', 'set pagination off', '-ex', target]
    for cmd in ['stepi', 'detach', 'attach 1', 'p $r1 > 1', 'disconnect', target,
                'p $r1 > 1', 'info inferiors', 'kill']:
        argv += ['-ex', cmd]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=90)
    except subprocess.TimeoutExpired:
        st.kill()
        raise AssertionError('gdb hung')
    out = p.stdout.decode(errors='replace') + p.stderr.decode(errors='replace')
    try:
        rc = st.wait(timeout=30)
    except ProtocolError:
        raise AssertionError('nxemu did not end: ' + out)
    assert 'Remote connection closed' not in out, out
    assert values(out) == ['1', '1'], out
    assert rc == 0, (rc, out)


@case
def kill_ends_without_running():
    need()
    out, rc, err = gdb_session(['-device', 'loader,file=%s' % IMAGES['fault']], ['kill'])
    assert rc == 0 and err == '', (rc, err)   # the faulting instruction never ran


@case
def kill_every_inferior_ends_nxemu():
    need()
    # two inferiors killed one after the other: gdb sees both killed (no
    # "Can't detach"), nxemu ends at the last kill with status 0 and
    # without running on
    args = ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['spin'],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES['second']]
    out, rc, err = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'kill', 'inferior 1', 'p $r1', 'kill',
        'info inferiors'])
    assert '[Inferior 2 (process 2) killed]' in out, out
    assert '[Inferior 1 (process 1) killed]' in out, out
    assert values(out) == ['0'], out
    for bad in ("Can't", 'Remote connection closed', 'Remote failure'):
        assert bad not in out, out
    assert rc == 0 and err == '', (rc, err)
    # kill inferior 1 only: inferior 2 stays attached (gdb detaches it when
    # it quits), the machine does not run again
    out, rc, err = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'kill', 'info inferiors',
        'inferior 2', 'p $r3'])
    assert '[Inferior 1 (process 1) killed]' in out, out
    assert values(out) == ['0'], ('seq1 never ran', out)
    assert "Can't detach" not in out, out
    assert rc == 0 and err == '', (rc, err)


@case
def kill_then_run_starts_again():
    need()
    # loop.s: r1 = 1 at the first tst (0x1000080), 2 at the second; after
    # kill, run starts a fresh run (the stored word back to 0, r1 = 1 at the
    # first stop); run again while stopped does the same; the last run ends
    out, rc, err = gdb_session(loop_args(), [
        'break *0x1000080', 'continue', 'continue', 'p $r1', 'x/xw 0x2000000', 'kill',
        'info inferiors', 'run', 'p $r1', 'x/xw 0x2000000', 'run', 'p $r1', 'delete',
        'continue'])
    assert values(out) == ['2', '1', '1'], out
    assert re.search(r'0x2000000:\s+0x00000001\n', out), out   # stored by the first pass
    assert re.search(r'0x2000000:\s+0x00000000\n', out), out   # a fresh run
    assert '[Inferior 1 (process 1) killed]' in out, out
    assert out.count('Breakpoint 1, 0x0000000001000080') == 4, out
    assert 'exited normally' in out, out
    for bad in ('Remote connection closed', 'failed', 'Remote failure'):
        assert bad not in out, out
    assert rc == 0, (rc, err)


@case
def vrun_at_the_protocol_level():
    if not IMAGES:
        raise Skip(NO_IMAGES)
    st = Stub(EMU, loop_args())
    try:
        c = st.connect()
        assert c.cmd('!') == b'OK'
        assert c.cmd('vCont;s:p1.1').startswith(b'T05')
        assert c.cmd('vKill;1') == b'OK'
        assert c.cmd('qfThreadInfo') == b'l', 'killed: no thread, but still connected'
        r = c.cmd('vRun;')
        assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
        assert b'20:0000000100000000;' in r, 'at the entry again'
        assert c.cmd('qfThreadInfo') == b'mp1.1'
        assert c.cmd('p22') == b'00000000'
        assert c.cmd('vCont;c').startswith(b'W00')
        c.close()
    except BaseException:
        st.kill()
        raise
    assert st.wait() == 0, st.stderr


@case
def catchpoints_stop_at_machine_events():
    need()
    # launch.s on seq0 (pid 1) writes EXECUTE at 0x1000040 (vtime 1, one
    # cycle per instruction), so tpc0 (pid 2) launches then and is caught
    # before its bundle 0; tpck.s takes 4 bundles = 4 cycles, so it ends at
    # vtime 1 + 4 = 5, and its completion adds 1 to sem 5 in the same
    # instant: one stop, both lines.
    args = ['-device', 'loader,file=%s' % IMAGES['launch'],
            '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpck']]
    out, rc, _ = gdb_session(args, [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'monitor catch',
        'monitor catch tpc-launch', 'monitor catch tpc-end', 'monitor catch sem 5 1',
        'continue', 'p/x $pc', 'continue', 'p/x $pc', 'monitor catch off tpc-end',
        'monitor catch off', 'monitor catch sem 256 1', 'monitor catch bogus',
        'monitor catch dma 3', 'continue', 'inferior 1', 'continue'])
    assert 'catching: nothing\ncatching: tpc-launch\ncatching: tpc-launch tpc-end\n' \
           'catching: tpc-launch tpc-end sem[5]=1\n' in out, out
    # (gdb prints monitor and console text on stderr, after stdout here)
    assert 'nxemu: catch: tpc0 launched by seq0 at vtime=1\n' in out, out
    assert '\nThread 2.1 received signal SIGTRAP, Trace/breakpoint trap.\n' \
           '[Switching to Thread 2.1]\n0x00000000 in ?? ()\n$1 = 0x0\n' in out, out
    assert ('nxemu: catch: tpc0 kernel ended after 4 cycles, 4 bundles at vtime=5\n'
            'nxemu: catch: sem[5] add: 0 -> 1\n') in out, out
    assert values(out) == ['0x0', '0x60'], out  # before bundle 0; at the halt bundle
    assert 'catching: tpc-launch sem[5]=1\ncatching: nothing\n' in out, out
    assert 'monitor: catch sem: give N VALUE (N below 256, a 32-bit VALUE)' in out, out
    assert "monitor: catch: unknown kind 'bogus' (try 'help')" in out, out
    assert 'monitor: catch dma takes no arguments' in out, out
    assert '[Inferior 1 (process 1) exited normally]' in out, out
    assert rc == 0, rc
    # dmaw.s issues a 16-byte DMA at vtime 0: latency 32 + ceil(16 / 64) = 33
    # cycles (docs/machine.rst, DMA timing); it is caught with the data moved
    # while seq0 waits at 0x1000040.
    out, rc, _ = gdb_session(dmaw_args(), [
        'monitor catch dma', 'continue', 'p/x $pc', 'x/4xw 0x2000200', 'continue'])
    assert 'nxemu: catch: dma0 completed 16 bytes for seq0 at vtime=33\n' in out, out
    assert values(out) == ['0x1000040'], out
    assert re.search(r'0x2000200:\s+0x00000011\s+0x00000022\s+0x00000033\s+0x00000044', out), out
    assert '[Inferior 1 (process 1) exited normally]' in out, out
    assert rc == 0, rc


@case
def ctrl_c_interrupts_a_running_machine():
    need()
    st = Stub(EMU, ['-device', 'loader,file=%s' % IMAGES['spin']])
    c = st.connect()
    c.send(b'vCont;c')
    time.sleep(0.3)
    c.send_raw(b'\x03')
    r = c.reply()
    assert r.startswith(b'T02') and b'thread:p1.1;' in r, r
    pc = re.search(rb'20:([0-9a-f]{16});', r).group(1)
    assert pc in (b'0000000100000000', b'4000000100000000'), pc
    assert int(c.cmd('p22'), 16) > 0   # r1 (33 + 1) counted
    # the machine stays stopped and can be resumed and interrupted again
    c.send(b'vCont;c')
    time.sleep(0.1)
    c.send_raw(b'\x03')
    assert c.reply().startswith(b'T02')
    assert c.cmd('vKill;1') == b'OK'
    c.close()
    assert st.wait() == 0


def add_f32_kernel():
    """tests/tpc-run/add-f32.s assembled (out = a + b), for nxemu-tpc-run."""
    need()
    if not TPC_RUN:
        raise Skip('nxemu-tpc-run not given')
    k = os.path.join(IMG, 'add-f32.o')
    p = subprocess.run([NXEMU_AS, '-t', 'tpc', os.path.join(SRCROOT, 'tests', 'tpc-run', 'add-f32.s'),
                        '-o', k], capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return k


def f32_file(name, values):
    path = os.path.join(IMG, name)
    with open(path, 'wb') as f:
        f.write(struct.pack('<%df' % len(values), *values))
    return path


@case
def tpc_run_kernel_breaks_at_bundle_0():
    """nxemu-tpc-run -S -gdb: a kernel launched with real tensors, its TPC an
    inferior that stops at bundle 0 before anything ran; the run then
    finishes with the right output (add-f32: out = a + b, by hand)."""
    k = add_f32_kernel()
    a = [float(i) for i in range(64)]
    ia, ib = f32_file('ta.bin', a), f32_file('tb.bin', [0.5] * 64)
    out = os.path.join(IMG, 'tout.bin')
    txt, rc, err = gdb_session(
        ['-k', k, '--index-space', '1,1', '-i', ia + ':64x1:f32', '-i', ib + ':64x1:f32',
         '-o', out + ':64x1:f32'],
        ['add-inferior', 'inferior 2', 'attach 2', 'break *0', 'continue', 'p/x $pc', 'p $S10',
         'delete', 'continue', 'inferior 1', 'continue'], binary=TPC_RUN)
    assert 'Thread 2.1 hit Breakpoint 1, 0x00000000' in txt, txt
    assert values(txt)[:2] == ['0x0', '0'], txt  # bundle 0 has not run: S10 still 0
    assert rc == 0, (rc, err)
    with open(out, 'rb') as f:
        got = struct.unpack('<64f', f.read())
    assert list(got) == [x + 0.5 for x in a], got


@case
def without_S_the_machine_runs_until_gdb_connects():
    need()
    st = Stub(EMU, ['-device', 'loader,file=%s' % IMAGES['spin']], start_stopped=False)
    time.sleep(0.3)
    c = st.connect()
    r = c.cmd('?')
    assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
    assert int.from_bytes(bytes.fromhex(c.cmd('p22').decode()), 'little') > 0, 'r1 counted'
    # a finished run without -S: the exit status as without gdb
    c.close()
    st.kill()
    st = Stub(EMU, ['-device', 'loader,file=%s' % IMAGES['fault']], start_stopped=False)
    assert st.wait() == 132
    assert 'code=INVALID_OPCODE(1)' in st.stderr.decode()


@case
def tpc_breakpoint_in_a_loop_the_direct_loop_runs():
    """A TPC breakpoint inside a loop body stops every pass, also the passes
    the direct loop runs (the body is decoded in the first): add-f32 on one
    256-element row runs its inner loop 4 times; break on the second ld_tnsr
    (0x1c0, docs/timing.rst lists the kernel): 4 stops, the loop iterator
    S33 = 0, 1, 2, 3 at each (tpc.md 6.3: S32 + depth), then the right
    output."""
    k = add_f32_kernel()
    a = [float(i) for i in range(256)]
    ia, out = f32_file('la.bin', a), os.path.join(IMG, 'lout.bin')
    txt, rc, err = gdb_session(
        ['-k', k, '--index-space', '4,1', '-i', ia + ':256x1:f32', '-i', ia + ':256x1:f32',
         '-o', out + ':256x1:f32', '--stats'],
        ['add-inferior', 'inferior 2', 'attach 2', 'break *0x1c0'] + ['continue', 'p $S33'] * 4 +
        ['delete', 'continue', 'inferior 1', 'continue'], binary=TPC_RUN)
    assert txt.count('hit Breakpoint 1, 0x000001c0') == 4, txt
    assert values(txt)[:4] == ['0', '1', '2', '3'], txt
    assert rc == 0, (rc, err)
    with open(out, 'rb') as f:
        got = struct.unpack('<256f', f.read())
    assert list(got) == [x + x for x in a], got[:8]
    # with the breakpoint set, the passes after the first still ran direct
    # (--stats; a staged-only run would say direct=0)
    m = re.search(r'tpc0 bundles=37 direct=(\d+) staged=(\d+)', err)
    assert m and int(m.group(1)) > 0, err


@case
def tpc_run_reverse_continue_in_a_kernel():
    """nxemu-tpc-run reverses as nxemu does: add-f32 on one 256-element row
    passes 0x1c0 (the second ld_tnsr) with the loop iterator S33 = 0..3; after
    three forward stops (S33 = 2) reverse-continue stops there with S33 = 1,
    then 0; reverse-stepi goes to the bundle before it (0x1a0, 32-byte
    bundles) and the run forward again writes the right output.  With
    --replay-budget 0 the same reverse-continue is refused."""
    k = add_f32_kernel()
    a = [float(i) for i in range(256)]
    ia, out = f32_file('ra.bin', a), os.path.join(IMG, 'rout.bin')
    args = ['-k', k, '--index-space', '4,1', '-i', ia + ':256x1:f32', '-i', ia + ':256x1:f32',
            '-o', out + ':256x1:f32']
    # from the start (no snapshots at these few steps), then from a snapshot
    # taken as often as it can be (--replay-every 1): the same answers
    for extra, source in (([], 'the start'), (['--replay-every', '1'], 'the snapshot')):
        if os.path.exists(out):
            os.unlink(out)
        txt, rc, err = gdb_session(
            args + extra,
            ['add-inferior', 'inferior 2', 'attach 2', 'break *0x1c0'] + ['continue'] * 3 +
            ['p $S33', 'reverse-continue', 'p $S33', 'reverse-continue', 'p $S33',
             'reverse-stepi', 'p/x $pc', 'monitor info replay', 'delete', 'continue',
             'inferior 1', 'continue'], binary=TPC_RUN)
        assert values(txt)[:4] == ['2', '1', '0', '0x1a0'], txt
        assert 'last reverse command: re-executed' in txt and 'from ' + source in txt, txt
        assert rc == 0, (rc, err)
        with open(out, 'rb') as f:
            got = struct.unpack('<256f', f.read())
        assert list(got) == [x + x for x in a], got[:8]
    txt, rc, err = gdb_session(
        args + ['--replay-budget', '0'],
        ['add-inferior', 'inferior 2', 'attach 2', 'break *0x1c0', 'continue', 'continue',
         'reverse-continue', 'p $S33', 'kill'], binary=TPC_RUN)
    assert "Target does not support this operation" in txt or 'not support' in txt, txt
    assert values(txt)[:1] == ['1'], txt
    p = subprocess.run([TPC_RUN] + args + ['--replay-budget', 'abc', '-s'], capture_output=True,
                       timeout=30)
    assert p.returncode == 125, p.returncode
    assert p.stderr == b"nxemu-tpc-run: --replay-budget: 'abc' is not a number\n", p.stderr



@case
def without_gdb_the_machine_runs_on():
    """longloop.s (900,000 instructions, far more than the rounds between two
    looks at the listening socket) ends with its FAIL status 3 under -gdb
    when no gdb ever connects, after gdb detaches, and after gdb is killed
    in the middle of a continue: the stub's look for a new gdb must not wait
    for one (it did: a run under -gdb only ended if it ended in its first
    rounds)."""
    need()
    img = ['-device', 'loader,file=%s' % IMAGES['longloop']]
    st = Stub(EMU, img, start_stopped=False)
    assert st.wait(timeout=60) == 3, st.stderr
    out, rc, _ = gdb_session(img, ['stepi', 'detach'])
    assert rc == 3, (rc, out)
    # the same loop 100 times longer
    st = Stub(EMU, ['-device', 'loader,file=%s' % bigloop(NXEMU_AS, HERE, IMG)])
    st.wait_listening()
    g = subprocess.Popen([GDB, '-nx', '-batch', '-ex', 'target extended-remote %s' % st.path,
                          '-ex', 'echo connected\\n', '-ex', 'continue'],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    # killed in the middle of the continue, not before it connected (a
    # slow gdb start left the stub waiting for a gdb that never came)
    for line in g.stdout:
        if b'connected' in line:
            break
    time.sleep(0.3)
    g.kill()
    g.wait()
    assert st.wait(timeout=60) == 3, st.stderr


# ---- issue 39: every stop is one stock gdb asked for or can take ----

def two_seq_args(seq0, seq1):
    return ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES[seq0],
            '-device', 'loader,file=%s,cpu-num=1' % IMAGES[seq1]]


@case
def step_over_a_wait_reports_only_the_stepped_core():
    """A breakpoint on seq0's waiting instruction (semwait.s, 0x1000000) and
    one on seq1 after it releases the wait (semsig1.s: post sem1, then a
    loop at 0x11000c0..0x1100100).  gdb steps seq0 alone over its breakpoint
    (vCont;s:p1.1); seq1 reaches its breakpoint while the machine runs for
    that step.  Stock gdb takes no other thread's stop for such a step
    (gdb 13 died with 'finish_step_over: Assertion trap_expected'): the
    step completes, and seq1's stop comes with the continue after it, with
    seq1's r1 = 3 (it counted to 3 before the post)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('semwait', 'semsig1'), [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x1100100', 'inferior 1',
        'break *0x1000000', 'set schedule-multiple on', 'continue', 'p $r1', 'p/x $pc',
        'monitor info cores', 'kill inferiors 1 2'])
    assert 'internal-error' not in out, out
    assert 'Thread 2.1 hit Breakpoint 1, 0x0000000001100100' in out, out
    assert values(out) == ['3', '0x1100100'], out
    assert 'pid 1 seq0 state=HALTED' in out, out  # its wait retired, then its halt


@case
def step_over_a_wait_held_by_a_core_stopped_first():
    """The same with seq1 (spin1.s) stopping at its breakpoint and never
    releasing seq0's wait: the step cannot finish; it is reported on seq0
    with a line naming seq1, and once seq0's breakpoint is disabled the next
    continue reports seq1's stop (gdb 13 died here too)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('semwait', 'spin1'), [
        'add-inferior', 'inferior 2', 'attach 2', 'break *0x1100040', 'inferior 1',
        'break *0x1000000', 'set schedule-multiple on', 'continue', 'p/x $pc', 'disable 2',
        'continue', 'p/x $pc', 'kill inferiors 1 2'])
    assert 'internal-error' not in out, out
    assert ('nxemu: seq0 cannot go on: it waits for seq1 at 0x1100040, stopped at a '
            'breakpoint or watchpoint gdb cannot hear of now (disable this core\'s breakpoint '
            'so that gdb continues instead of stepping it)') in out, out
    assert 'Thread 2.1 hit Breakpoint 1, 0x0000000001100040' in out, out
    assert values(out) == ['0x1000000', '0x1100040'], out


@case
def tpc_run_continue_launches_the_kernel():
    """docs/tpc-run.rst's recipe: the TPC is RESET when gdb attaches, gdb
    steps it over `break *0` before continuing.  The step runs the machine
    until the launcher starts the kernel: the stop at bundle 0 is the
    kernel's (tpc0 RUNNING, KERNEL_BASE latched), and the next continue runs
    the kernel to its end (before, every continue printed the same stop of a
    TPC that never ran, bundles=0)."""
    k = add_f32_kernel()
    a = [float(i) for i in range(64)]
    ia, ib = f32_file('ra.bin', a), f32_file('rb.bin', [0.5] * 64)
    out = os.path.join(IMG, 'rout.bin')
    txt, rc, err = gdb_session(
        ['-k', k, '--index-space', '1,1', '-i', ia + ':64x1:f32', '-i', ib + ':64x1:f32',
         '-o', out + ':64x1:f32'],
        ['add-inferior', 'inferior 2', 'attach 2', 'break *0', 'continue', 'monitor info cores',
         'continue', 'monitor info cores', 'inferior 1', 'continue'], binary=TPC_RUN)
    assert txt.count('hit Breakpoint 1, 0x00000000') == 1, txt
    assert 'pid 2 tpc0 state=RUNNING pc=0x00000000' in txt, txt
    assert 'nxemu: tpc0 halted at pc=' in txt, txt
    assert 'pid 2 tpc0 state=HALTED' in txt, txt
    assert rc == 0, (rc, err)
    assert 'bundles=0 ' not in err, err
    with open(out, 'rb') as f:
        got = struct.unpack('<64f', f.read())
    assert list(got) == [x + 0.5 for x in a], got


@case
def reverse_stepi_moves_the_selected_core():
    """With `set schedule-multiple on` (what nxemu-attach-all sets) gdb sends
    Hc0 + bs for reverse-stepi: the core moved back is the selected
    inferior's, seq1 (spin1.s: add at 0x1100000, `b spin` at 0x1100040), not
    the core of the last stop (seq0, stopped at its breakpoint in
    longloop.s).  One step back from the add is the `b`; seq0's registers,
    re-read, are those of that earlier moment (before: seq0 was moved back
    and seq1 did not move)."""
    need()
    out, rc, _ = gdb_session(['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['longloop'],
                              '-device', 'loader,file=%s,cpu-num=1' % IMAGES['spin1']], [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'set schedule-multiple on',
        'break *0x1000100', 'continue', 'inferior 2', 'p/x $pc', 'reverse-stepi', 'p/x $pc',
        'inferior 1', 'p/x $pc', 'kill inferiors 1 2'], timeout=120)
    v = values(out)
    assert v[:2] == ['0x1100000', '0x1100040'], out
    assert len(v) == 3 and v[2] != '0x1000100', out  # seq0 re-read, earlier in its loop


@case
def boot_core_stop_while_another_inferior_continues():
    """The issue's hang: seq0 (loop.s) has a breakpoint at 0x1000080, the
    user continues inferior 2 (seq1, second.s: r3 = 42, then HALT) with
    schedule-multiple off.  gdb resumes process 2 only; a stop of seq0,
    which gdb still holds as stopping quietly since the connect, left gdb
    hung for good.  seq0's stop is held until gdb resumes it: the continue
    ends with seq1's halt, and the continue of inferior 1 meets seq0's
    breakpoint in its first pass (r1 = 1)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('loop', 'second'), [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'break *0x1000080',
        'inferior 2', 'continue', 'p $r3', 'inferior 1', 'continue', 'p $r1',
        'kill inferiors 1 2'], timeout=60)
    assert 'nxemu: seq1 halted at pc=0x1100080' in out, out
    assert 'Thread 1.1 hit Breakpoint 1, 0x0000000001000080' in out, out
    assert values(out) == ['42', '1'], out


@case
def attach_all_then_continue_from_another_inferior():
    """`nxemu-attach-all`, `inferior 2`, `continue` (schedule-multiple on,
    every core resumed) hung the same way on seq0's breakpoint: the script
    now attaches inferior 1 again last, and the stop is reported (seq0 in
    its first pass, r1 = 1)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('loop', 'spin1'), [
        'nxemu-attach-all', 'break *0x1000080', 'inferior 2', 'continue', 'p $r1',
        'kill inferiors 1 2 3'], load_script=True, timeout=60)
    assert 'Thread 1.1 hit Breakpoint 1, 0x0000000001000080' in out, out
    assert values(out) == ['1'], out


@case
def schedule_multiple_by_hand_then_continue_from_another_inferior():
    """The brief's hang: a core attached by hand (`attach 2` in inferior 2),
    `set schedule-multiple on` typed by hand, `continue` from inferior 2:
    gdb resumes every inferior (vCont;c, naming none), and seq0's
    breakpoint stop left gdb hung for good (inferior 1 "stopping quietly"
    since the connect).  With scripts/nxemu-gdb.py loaded, the attach ends
    that state as nxemu-attach-all does: the stop is reported on seq0's
    thread, in its first pass (loop.s: r1 = 1)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('loop', 'spin1'), [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'break *0x1000080',
        'inferior 2', 'set schedule-multiple on', 'continue', 'p $r1', 'kill inferiors 1 2'],
        load_script=True, timeout=60)
    assert 'Thread 1.1 hit Breakpoint 1, 0x0000000001000080' in out, out
    assert values(out) == ['1'], out


@case
def reverse_continue_refreshes_the_other_inferiors():
    """schedule-multiple off: seq0 (longloop.s) stops at its end, seq1
    (spin1.s, inferior 2) has counted r1 = 449984 by then; seq0's
    reverse-continue to its first instruction takes the whole machine back
    to the start, where seq1's r1 is 0.  gdb re-reads only the registers of
    the inferior it resumed; with scripts/nxemu-gdb.py loaded every cached
    register is dropped at the stop, so inferior 2 shows 0 (it showed the
    stale 449984)."""
    need()
    out, rc, _ = gdb_session(two_seq_args('longloop', 'spin1'), [
        'add-inferior', 'inferior 2', 'attach 2', 'inferior 1', 'break *0x1000100',
        'continue', 'inferior 2', 'p $r1', 'inferior 1', 'break *0x1000000',
        'reverse-continue', 'inferior 2', 'p $r1', 'kill inferiors 1 2'],
        load_script=True, timeout=120)
    assert 'Thread 1.1 hit Breakpoint 2, 0x0000000001000000' in out, out
    assert values(out) == ['449984', '0'], out


@case
def dma_watchpoint_names_the_transfer():
    """A watch hit by a DMA transfer is reported on the process that set the
    watchpoint (gdb matches watchpoints in the inferior that set them), with
    a line naming the accessor: dmaw.s's DMA, issued by seq0, writes
    0x33 to 0x2000208 (before it moves: the first stop; gdb prints the new
    value, 51, at the second)."""
    need()
    out, rc, _ = gdb_session(dmaw_args(), [
        'monitor last-access', 'watch *(int*)0x2000208', 'continue', 'continue',
        'monitor last-access', 'kill'])
    assert ('nxemu: watchpoint 0x2000208 of seq0: a DMA transfer of seq0 writes it (before '
            'the access)') in out, out
    assert 'Old value = 0\nNew value = 51' in out, out
    # monitor last-access: nothing before the first hit, then the hit
    assert 'no watchpoint hit reported yet' in out, out
    assert re.search(r'^watchpoint 0x2000208 of seq0: a DMA transfer of seq0 writes it '
                     r'\(before the access\)$', out, re.M), out


@case
def another_sequencer_writing_is_named():
    """seq1 (seqw1.s) stores 42 to 0x2000100 with the tst at 0x1100040; the
    word is watched from seq0's inferior (spin.s), where gdb 13 matches the
    watchpoint, so the stop is on seq0's thread and a console line names
    the writer and its instruction (the access is seen after it happened);
    `monitor last-access` repeats it.  seq1 attached in inferior 2 changes
    nothing of that."""
    need()
    line = ('watchpoint 0x2000100 of seq0: seq1 at pc=0x1100040 writes it (after the '
            'access)')
    for attach in ([], ['add-inferior', 'inferior 2', 'attach 2', 'inferior 1']):
        out, rc, _ = gdb_session(
            ['-smp', 'seq=2', '-device', 'loader,file=%s' % IMAGES['spin'],
             '-device', 'loader,file=%s,cpu-num=1' % IMAGES['seqw1']],
            attach + ['watch *(int*)0x2000100', 'continue', 'monitor last-access',
                      'kill inferiors 1' + (' 2' if attach else '')], timeout=60)
        assert 'nxemu: ' + line in out, out
        assert 'Thread 1.1 hit Hardware watchpoint' in out or not attach, out
        assert 'Old value = 0\nNew value = 42' in out, out
        assert out.count(line) == 2, out  # the console line and the monitor's


@case
def tpc_writing_a_word_watched_by_the_sequencer_is_named():
    """launchst2.s (seq0) launches tpcst.s on TPC 0, whose st_tnsr at
    bundle 0x20 stores 7 to the 64 lanes of tensor 0 at PA 0x2000000; lane
    1 is watched from seq0's inferior (no TPC attached): the stop is on seq0
    and the line names tpc0 and its bundle."""
    need()
    out, rc, _ = gdb_session(
        ['-device', 'loader,file=%s' % IMAGES['launchst2'],
         '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpcst']],
        ['watch *(int*)0x2000004', 'continue', 'monitor last-access', 'delete', 'continue'],
        timeout=60)
    line = 'watchpoint 0x2000004 of seq0: tpc0 at pc=0x20 writes it (after the access)'
    assert 'nxemu: ' + line in out, out
    assert out.count(line) == 2, out
    assert 'Old value = 0\nNew value = 7' in out, out
    assert 'exited normally' in out, out
    assert rc == 0, rc


def main():
    return CASES.run(cleanup=IMG, header='emulator: %s' % EMU)


if __name__ == '__main__':
    sys.exit(main())
