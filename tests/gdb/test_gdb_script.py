#!/usr/bin/env python3
"""scripts/nxemu-gdb.py commands in real gdb-multiarch sessions (TAP).

usage: test_gdb_script.py NXEMU_TPC_RUN NXEMU_AS SRCROOT

The add-f32 kernel of tests/tpc-run runs under nxemu-tpc-run -S -gdb with
a = 0, 1, ..., 63 and b = 0.5; at the st_tnsr bundle (0x200) V1 holds a and
V3 holds a + b.  Expected grids are worked out from those inputs by hand.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gdbclient import Stub  # noqa: E402

TPC_RUN, NXEMU_AS, SRCROOT = [os.path.abspath(a) for a in sys.argv[1:4]]
GDB = shutil.which('gdb-multiarch')
SCRIPT = os.path.join(SRCROOT, 'scripts', 'nxemu-gdb.py')


def session(tmp, commands):
    """gdb output of commands run at the kernel's st_tnsr bundle."""
    k = os.path.join(tmp, 'add-f32.o')
    p = subprocess.run([NXEMU_AS, '-t', 'tpc', os.path.join(SRCROOT, 'tests', 'tpc-run',
                                                            'add-f32.s'), '-o', k],
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    ia, ib, out = (os.path.join(tmp, n) for n in ('a.bin', 'b.bin', 'out.bin'))
    with open(ia, 'wb') as f:
        f.write(struct.pack('<64f', *[float(i) for i in range(64)]))
    with open(ib, 'wb') as f:
        f.write(struct.pack('<64f', *[0.5] * 64))
    st = Stub(TPC_RUN, ['-k', k, '--index-space', '1,1', '-i', ia + ':64x1:f32',
                        '-i', ib + ':64x1:f32', '-o', out + ':64x1:f32'])
    st.wait_listening()
    argv = [GDB, '-nx', '-batch', '-ex', 'set pagination off', '-ex', 'source ' + SCRIPT,
            '-ex', 'target extended-remote %s' % st.path]
    for c in ['add-inferior', 'inferior 2', 'attach 2', 'break *0x200', 'continue',
              'echo ====\\n'] + commands + ['echo ====\\n', 'delete', 'continue', 'inferior 1',
                                          'continue']:
        argv += ['-ex', c]
    try:
        # one stream: gdb's error messages land between the commands' output
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=90)
    finally:
        rc = st.wait(timeout=30)
    txt = r.stdout.decode(errors='replace')
    assert rc == 0, (rc, txt)
    assert txt.count('====') == 2, txt
    return txt.split('====')[1].strip('\n').splitlines()


def grid_cells(line):
    """'[  8]   8.5~   9.5 ...' -> ['8.5~', '9.5', ...] (14 columns a lane)."""
    body = line[5:]
    return [body[i:i + 14].replace(' ', '') for i in range(0, len(body), 14)]


def vreg_grid_types_slices_and_predicate(tmp):
    lines = session(tmp, ['nxemu-vreg V3 f32 0:10', 'set $VP1.u64[0] = 0x1001',
                          'nxemu-vreg V3 VP1 0:4', 'nxemu-vreg V1 bf16 0:4',
                          'nxemu-vreg V1 u8 4:12', 'nxemu-vreg V3 70:80'])
    # V3 = a + 0.5, eight lanes a row, rows labelled by their first lane
    assert lines[0] == 'V3 as f32, lanes 0..9', lines
    assert lines[1].startswith('[  0]') and grid_cells(lines[1]) == [
        '0.5', '1.5', '2.5', '3.5', '4.5', '5.5', '6.5', '7.5'], lines
    assert lines[2].startswith('[  8]') and grid_cells(lines[2]) == ['8.5', '9.5'], lines
    # VP1 = bits 0 and 12: f32 lane i is enabled by bit 4i, so lanes 0 and 3
    assert lines[3] == 'V3 as f32, lanes 0..3, ~ = disabled by VP1', lines
    assert grid_cells(lines[4]) == ['0.5', '1.5~', '2.5~', '3.5'], lines
    # V1 lanes 0, 1 as bf16: halves of f32 0.0 and 1.0 (0x3f800000) -> 0 0 0 1
    assert grid_cells(lines[6]) == ['0', '0', '0', '1'], lines
    # bytes 4..11: 1.0 = 00 00 80 3f, 2.0 = 00 00 00 40; the row starts at lane 0
    assert lines[8].startswith('[  0]') and grid_cells(lines[8])[4:] == [
        '0', '0', '128', '63'], lines
    assert grid_cells(lines[9]) == ['0', '0', '0', '64'], lines
    assert lines[10] == 'nxemu-vreg: no lanes in 70:64 (V3 has 64 f32 lanes)', lines


def tensor_through_its_descriptor(tmp):
    lines = session(tmp, ['nxemu-tensor 0 0:1 0:10', 'nxemu-tensor 1', 'nxemu-tensor 0 u16',
                          'nxemu-tensor 0 @1', 'nxemu-tensor 16', 'nxemu-tensor 0 i32 0:1 62:70',
                          'inferior 1', 'nxemu-tensor 0', 'inferior 2'])
    # -i a -i b -o out: descriptors 0, 1, 2 (docs/tpc-run.rst); 64x1 f32 is
    # dim 0 of size 64 (stride 1) and dim 1 of size 1 (stride 64)
    assert re.fullmatch(r'tensor 0 of tpc0: base=0x[0-9a-f]+ f32 dims=64x1 strides=1,64',
                        lines[0]), lines
    assert lines[1] == 'rows 0..0, columns 0..9', lines
    # a = 0, 1, ..., 63: a row of ten columns
    assert lines[2].startswith('[  0]') and grid_cells(lines[2]) == [
        str(i) for i in range(10)], lines
    # b = 0.5 everywhere; by default the first 8 columns of every row (1 here)
    assert re.fullmatch(r'tensor 1 of tpc0: base=0x[0-9a-f]+ f32 dims=64x1 strides=1,64',
                        lines[3]), lines
    assert lines[4] == 'rows 0..0, columns 0..7', lines
    assert grid_cells(lines[5]) == ['0.5'] * 8, lines
    assert lines[6] == 'nxemu-tensor: u16 is 2 bytes, tensor 0 has 4-byte elements', lines
    assert lines[7] == 'nxemu-tensor: index 1 of dim 2 is outside its size 1', lines
    assert lines[8].startswith('usage: nxemu-tensor T'), lines
    # columns past dim 0's 64 are cut; 62.0 = 0x42780000, 63.0 = 0x427c0000
    assert lines[10] == 'rows 0..0, columns 62..63', lines
    assert grid_cells(lines[11]) == [str(0x42780000), str(0x427c0000)], lines
    # after gdb's "Switching to inferior 1" lines: the launcher, a sequencer
    assert lines[12].startswith('[Switching to inferior 1'), lines
    assert ('nxemu-tensor: the current inferior is not a TPC (nxemu-cores lists them)'
            in lines[13:16]), lines


def main():
    cases = [vreg_grid_types_slices_and_predicate, tensor_through_its_descriptor]
    print('1..%d' % len(cases))
    failed = 0
    for i, fn in enumerate(cases, 1):
        if not GDB:
            print('ok %d - %s # SKIP gdb-multiarch not installed' % (i, fn.__name__))
            continue
        tmp = tempfile.mkdtemp(prefix='nxgdbscript')
        try:
            fn(tmp)
            print('ok %d - %s' % (i, fn.__name__))
        except (AssertionError, IndexError, OSError, subprocess.SubprocessError) as e:
            failed += 1
            print('not ok %d - %s' % (i, fn.__name__))
            for line in str(e).splitlines()[:40]:
                print('# ' + line)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
