#!/usr/bin/env python3
"""Source-level debugging of programs assembled with `nxemu-as -g`, in real
gdb-multiarch sessions (TAP output).

usage: test_gdb_source.py NXEMU NXEMU_AS NXEMU_TPC_RUN SRCROOT

Sequencer: tests/gdb/callf.s (its comments give each record's address:
start = line 7 at 0x1000000, one 64-byte record a line, twice = line 15 at
0x1001000); the ELF is gdb's program file.  TPC: examples/tpc/double-f32.s
under nxemu-tpc-run, one 32-byte bundle a line from line 7 (bundle 0), so
line N is at 0x20 * (N - 7) up to the labels at lines 23 and 25 (st_tnsr on
line 22 is 0x1e0, as docs/tpc-run.rst says); the kernel object is the TPC
inferior's symbol file.  gdb runs with -nx and without `source`: what
nxemu-gdb.py gives (x/i, nxemu-vreg) comes from the script the ELF carries.
Expected values are from the sources, worked out by hand.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gdbclient import Stub  # noqa: E402
from gdbtap import Cases, Skip, values  # noqa: E402

NXEMU, NXEMU_AS, TPC_RUN, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:5]]
GDB = shutil.which('gdb-multiarch')
TMP = tempfile.mkdtemp(prefix='nxgdbsrc')
CASES = Cases()
case = CASES.case


def need():
    if not GDB:
        raise Skip('gdb-multiarch not installed')


def asm(src, out, tpc=False, debug=True):
    """nxemu-as [-t tpc] [-g] src -o TMP/out, run in TMP (the compile
    directory the line table records); the output's path."""
    path = os.path.join(TMP, out)
    p = subprocess.run([NXEMU_AS] + (['-t', 'tpc'] if tpc else []) + (['-g'] if debug else []) +
                       [src, '-o', path], capture_output=True, timeout=60, cwd=TMP)
    assert p.returncode == 0, p.stderr
    return path


def copy(rel):
    """SRCROOT/rel copied into TMP (so the line table names it relative)."""
    name = os.path.basename(rel)
    shutil.copy(os.path.join(SRCROOT, rel), os.path.join(TMP, name))
    return name


def gdb(binary, args, cmds, program=None, safe=True, timeout=90):
    """One batch gdb session against binary (nxemu or nxemu-tpc-run) with
    args; gdb's program file is program.  safe: TMP is an auto-load safe
    path (docs/gdb.rst, "Source lines").  Returns gdb's output (stdout and
    stderr in order) and the emulator's exit status."""
    st = Stub(binary, args)
    st.wait_listening()
    argv = [GDB, '-nx', '-batch']
    if safe:
        argv += ['-iex', 'add-auto-load-safe-path ' + TMP]
    argv += ([program] if program else []) + ['-ex', 'set pagination off',
                                              '-ex', 'target extended-remote ' + st.path]
    for c in cmds:
        argv += ['-ex', c]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, cwd=TMP)
    except subprocess.TimeoutExpired:
        st.kill()
        raise AssertionError('gdb hung')
    rc = st.wait(timeout=30)
    return p.stdout.decode(errors='replace'), rc


@case
def seq_break_at_a_line_list_and_info_line():
    need()
    elf = asm(copy('tests/gdb/callf.s'), 'callf.elf')
    out, rc = gdb(NXEMU, ['-device', 'loader,file=' + elf], [
        'info line *$pc', 'break callf.s:16', 'info line callf.s:10', 'continue',
        'list 15,16', 'p $r2', 'delete', 'continue'], program=elf)
    assert 'Line 7 of "callf.s" starts at address 0x1000000 <start>' in out, out
    assert 'Breakpoint 1 at 0x1001040: file callf.s, line 16.' in out, out
    assert 'Line 10 of "callf.s" starts at address 0x10000c0' in out, out
    # the stop names the function (twice, a declared function) and the line
    assert 'Breakpoint 1, twice () at callf.s:16' in out, out
    assert '15\ttwice:  add.u32 r2, r2, 2' in out, out
    assert '16\tagain:  add.u32 r3, r3, 1' in out, out
    assert values(out) == ['2'], out  # twice ran its first record once
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def seq_next_step_and_finish_by_line():
    need()
    elf = asm(copy('tests/gdb/callf.s'), 'callf.elf')
    out, rc = gdb(NXEMU, ['-device', 'loader,file=' + elf], [
        'next', 'next', 'step', 'bt', 'next', 'next', 'next', 'next', 'p $r1', 'p $r2',
        'until 11', 'p $r1', 'p $r2', 'continue'], program=elf)
    lines = [ln for ln in out.splitlines() if ln[:2].strip().isdigit() and '\t' in ln]
    nums = [int(ln.split('\t')[0]) for ln in lines]
    # 7 -next-> 8 -next-> 9 (call) -step-> 15 (into twice) -next-> 16
    # -next-> 17 (b r63:r62) -next-> 10 (back in start) -next-> 8 (blt taken)
    assert nums[:8] == [7, 8, 9, 15, 16, 17, 10, 8], out
    assert 'twice () at callf.s:15' in out, out
    assert '#1  0x00000000010000c0 in start () at callf.s:9' in out, out
    # until 11 runs the two passes left: r1 = 3, twice ran three times
    assert values(out) == ['1', '2', '3', '6'], out
    assert 'start () at callf.s:11' in out, out
    assert 'exited normally' in out and rc == 0, (rc, out)


@case
def seq_include_is_a_file_of_the_line_table():
    need()
    with open(os.path.join(TMP, 'inc-main.s'), 'w') as f:
        f.write('; main\n        .org 0x01000000\nstart:  mov.u32 {r1}, {7}\n'
                '        .include "inc-body.s"\n        halt\n')
    with open(os.path.join(TMP, 'inc-body.s'), 'w') as f:
        f.write('; body\n\n        add.u32 r1, r1, 1\n        write.u32 [0x2805000000], 0x5555\n')
    elf = asm('inc-main.s', 'inc.elf')
    out, rc = gdb(NXEMU, ['-device', 'loader,file=' + elf], [
        'break inc-body.s:3', 'info line inc-main.s:5', 'continue', 'p $r1', 'next', 'p $r1',
        'continue'], program=elf)
    assert 'Breakpoint 1 at 0x1000040: file inc-body.s, line 3.' in out, out
    assert 'Line 5 of "inc-main.s" starts at address 0x10000c0' in out, out
    assert 'Breakpoint 1, start () at inc-body.s:3\n3\t        add.u32 r1, r1, 1' in out, out
    assert values(out) == ['7', '8'], out
    assert '4\t        write.u32' in out, out
    assert rc == 0, (rc, out)


@case
def debug_info_leaves_the_loaded_bytes_alone():
    # -g adds sections gdb reads; nxemu-objdump (the loaded records and
    # symbols) is the same with and without it, for both ISAs
    for src, tpc in (('tests/gdb/callf.s', False), ('examples/tpc/double-f32.s', True)):
        name = copy(src)
        a = asm(name, name + '.g', tpc=tpc)
        b = asm(name, name + '.plain', tpc=tpc, debug=False)
        objdump = os.path.join(os.path.dirname(NXEMU_AS), 'nxemu-objdump')
        da = subprocess.run([objdump, '-d', a], capture_output=True, timeout=60)
        db = subprocess.run([objdump, '-d', b], capture_output=True, timeout=60)
        assert da.returncode == 0 and db.returncode == 0, (da.stderr, db.stderr)
        assert da.stdout.replace(b'.g', b'') == db.stdout.replace(b'.plain', b''), src
        assert os.path.getsize(a) > os.path.getsize(b), src
    # the vendor's llvm-objdump reads a -g kernel like a plain one (when
    # ../shared/vendor is beside the tree)
    vendor = os.path.join(os.path.dirname(SRCROOT), 'shared', 'vendor', 'tpc-llvm', 'unpack.sh')
    if os.path.isfile(vendor):
        tools = subprocess.run(['sh', vendor], capture_output=True, text=True,
                               check=True).stdout.strip()
        vob = [os.path.join(tools, 'llvm-objdump'), '--triple', 'tpc', '--mcpu=gaudi', '-d',
               '--no-show-raw-insn']
        va = subprocess.run(vob + [name + '.g'], capture_output=True, timeout=60, cwd=TMP)
        vb = subprocess.run(vob + [name + '.plain'], capture_output=True, timeout=60, cwd=TMP)
        assert va.returncode == 0 and b'st_tnsr' in va.stdout, va
        assert va.stdout.replace(b'.g:', b':') == vb.stdout.replace(b'.plain:', b':'), \
            (va.stdout, vb.stdout)


def tpc_session(cmds, safe=True, debug=True):
    """double-f32 (-g) under nxemu-tpc-run; gdb attaches the TPC as
    inferior 2 and loads the kernel object as its symbol file."""
    k = asm(copy('examples/tpc/double-f32.s'), 'double.o', tpc=True, debug=debug)
    inp, outp = os.path.join(TMP, 'in.bin'), os.path.join(TMP, 'out.bin')
    with open(inp, 'wb') as f:
        f.write(struct.pack('<256f', *range(256)))
    return gdb(TPC_RUN, ['-k', k, '--index-space', '4', '-i', inp + ':256:f32',
                         '-o', outp + ':256:f32'],
               ['add-inferior', 'inferior 2', 'attach 2', 'symbol-file ' + k] + cmds, safe=safe)


@case
def tpc_kernel_lines_and_autoloaded_script():
    need()
    out, rc = tpc_session([
        'info line double-f32.s:22', 'break double-f32.s:21', 'continue', 'info line *$pc',
        'next', 'x/i $pc', 'nxemu-vreg V3 f32 0:4', 'delete', 'continue'])
    assert 'Line 22 of "double-f32.s" starts at address 0x1e0' in out, out
    assert 'Breakpoint 1 at 0x1c0: file double-f32.s, line 21.' in out, out
    assert 'Line 21 of "double-f32.s" starts at address 0x1c0' in out, out
    assert '22\tnop; nop; nop; st_tnsr 0x1, I2, V3' in out, out
    # the TPC's own disassembly and commands, from the script in the object
    assert '=> 0x1e0' in out and 'st_tnsr 0x1, I2, V3' in out.split('=> 0x1e0')[1], out
    assert 'V3 as f32, lanes 0..3' in out, out
    assert re.search(r'^\[  0\] +0 +2 +4 +6 *$', out, re.M), out  # V3 = 2 * index
    assert rc == 0, (rc, out)


@case
def tpc_next_over_halt_ends_the_run():
    # a TPC's halt leaves its pc on the halt: `next` there used to step it
    # for ever (gdb hung); now the step runs the machine to the end
    need()
    out, rc = tpc_session(['break double-f32.s:24', 'continue', 'next', 'next'])
    assert 'Breakpoint 1, End0 () at double-f32.s:24' in out, out
    assert 'End1 () at double-f32.s:26\n26\thalt' in out, out
    assert 'nxemu: tpc0 halted at pc=0x220' in out, out
    assert '[Inferior 2 (process 2) exited normally]' in out, out
    assert rc == 0, (rc, out)


@case
def script_not_loaded_outside_the_safe_path():
    # gdb's auto-load safety: without the safe path gdb declines the script
    # and says how to allow it; symbols and lines still work
    need()
    out, rc = tpc_session(['info line double-f32.s:22', 'nxemu-vreg V3'], safe=False)
    assert 'auto-load safe-path' in out, out
    assert 'Line 22 of "double-f32.s" starts at address 0x1e0' in out, out
    assert 'Undefined command: "nxemu-vreg"' in out, out


sys.exit(CASES.run(cleanup=TMP))
