#!/usr/bin/env python3
"""Ctrl-C and kill after nxemu-attach-all, in real gdb-multiarch sessions
(TAP output).

usage: test_gdb_attach_all.py NXEMU NXEMU_AS SRCROOT

tests/gdb/launchspin.s on sequencer 0 launches tpck.s on TPC 0 (three adds
and a halt at 0x60), waits for it, then counts r1 in a loop at 0x10000c0 /
0x1000100 for ever.  gdb attaches every core (inferior 1 = seq0, 2 =
tpc0), stops the TPC at bundle 0x20, lets it halt, continues from the
TPC's inferior and is interrupted (SIGINT, as a terminal's Ctrl-C) while
only seq0 is executing.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import Stub  # noqa: E402
from gdbtap import Cases, Skip, assemble  # noqa: E402

NXEMU, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
GDB = shutil.which('gdb-multiarch')
SCRIPT = os.path.join(SRCROOT, 'scripts', 'nxemu-gdb.py')
TMP = tempfile.mkdtemp(prefix='nxgdball')
IMAGES, NO_IMAGES = assemble(NXEMU_AS, HERE, TMP, ('launchspin', 'tpck'), tpc=('tpck',))
CASES = Cases()
case = CASES.case

TO_THE_SPIN = ['nxemu-attach-all', 'inferior 2', 'break *0x20', 'continue', 'delete',
               'continue', 'echo ==spin==\\n', 'continue']


def interrupted_session(after):
    """gdb runs TO_THE_SPIN then the commands after; SIGINT reaches gdb
    while its last continue runs.  Returns gdb's output and nxemu's exit
    status."""
    if not GDB:
        raise Skip('gdb-multiarch not installed')
    if not IMAGES:
        raise Skip(NO_IMAGES)
    st = Stub(NXEMU, ['-device', 'loader,file=' + IMAGES['launchspin'],
                      '-device', 'loader,file=%s,addr=0x100000,tpc-num=0' % IMAGES['tpck']])
    st.wait_listening()
    argv = [GDB, '-nx', '-batch', '-x', SCRIPT, '-ex', 'set pagination off',
            '-ex', 'target extended-remote ' + st.path]
    for c in TO_THE_SPIN + after + ['echo ==end==\\n']:
        argv += ['-ex', c]
    g = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: g.stdout.read(1), b'')))
    reader.start()
    end = time.time() + 60
    while b'==spin==' not in b''.join(chunks) and time.time() < end and g.poll() is None:
        time.sleep(0.05)
    time.sleep(0.5)  # gdb is in the continue: the machine runs seq0's loop
    g.send_signal(signal.SIGINT)
    try:
        g.wait(timeout=60)
    except subprocess.TimeoutExpired:
        g.kill()
        st.kill()
        raise AssertionError('gdb hung: ' + b''.join(chunks).decode(errors='replace'))
    reader.join()
    out = b''.join(chunks).decode(errors='replace')
    try:
        rc = st.wait(timeout=30)
    except Exception:
        raise AssertionError('nxemu did not end: ' + out)
    return out, rc


@case
def ctrl_c_lands_on_the_executing_core():
    # the continue came from the TPC's inferior, whose TPC has halted: the
    # stop names seq0, which was executing its loop
    out, rc = interrupted_session(['p $pc', 'kill'])
    assert 'nxemu: tpc0 halted at pc=0x60' in out, out
    tail = out.split('==spin==')[1]
    assert 'Thread 1.1 received signal SIGINT, Interrupt.' in tail, out
    assert '$1 = (void (*)()) 0x10000c0' in tail or '$1 = (void (*)()) 0x1000100' in tail, out


@case
def kill_after_attach_all_kills_every_core():
    # gdb's kill kills the current inferior; the script's hookpost-kill
    # kills the others of the connection: none is left live, and nxemu ends
    out, rc = interrupted_session(['kill', 'info inferiors'])
    tail = out.split('==spin==')[1]
    assert '[Inferior 1 (process 1) killed]' in tail, out
    inferiors = tail.split('Executable')[1].split('==end==')[0]
    assert 'process' not in inferiors, out  # both <null>: no live process
    assert '==end==' in out, out
    assert rc == 0, (rc, out)


sys.exit(CASES.run(cleanup=TMP))
