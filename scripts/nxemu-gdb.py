# gdb 13 helpers for nxemu (docs/gdb.rst).  Load with:
#     (gdb) source scripts/nxemu-gdb.py
#
# * A disassembler for the two core types: nxemu's sequencers pose as
#   riscv:rv64 and its TPCs as riscv:rv32, so gdb would decode our bytes as
#   RISC-V.  This one asks the stub (`monitor disas CORE ADDR`), which uses
#   the emulator's own disassembler, so `x/i`, `display/i` and `disassemble`
#   show real instructions with their real lengths (64-byte sequencer
#   records, 32-byte TPC bundles).  Inferiors that are not nxemu cores keep
#   gdb's built-in disassembler.
# * `nxemu-attach-all`: one inferior per core (add-inferior / attach PID)
#   and `set schedule-multiple on`.
# * `nxemu-cores`: the cores, their gdb pids and states.
# * `nxemu-vreg Vn [TYPE] [VPm] [LO:HI]`: a TPC vector register as a grid of
#   lanes in one element type, optionally with a vector predicate's lanes
#   marked and only some lanes shown.
import re
import struct

import gdb
import gdb.disassembler

_CORE_LINE = re.compile(r'^pid (\d+) ((?:seq|tpc)\d+) state=(\w+) pc=(0x[0-9a-f]+)')
_DISAS_LINE = re.compile(r'^0x([0-9a-f]+) (\d+) (.*)$')


def _monitor(cmd):
    return gdb.execute('monitor ' + cmd, to_string=True)


class _Session:
    """Per-connection knowledge: pid -> core name, disassembly cache."""

    def __init__(self):
        self.cores = None  # pid -> name
        self.cache = {}

    def core_of_pid(self, pid):
        if self.cores is None:
            self.cores = {}
            try:
                for line in _monitor('info cores').splitlines():
                    m = _CORE_LINE.match(line)
                    if m:
                        self.cores[int(m.group(1))] = m.group(2)
            except gdb.error:
                self.cores = None
                return None
        return self.cores.get(pid)

    def reset(self, *_):
        self.cache.clear()

    def forget(self, *_):
        self.cores = None
        self.cache.clear()


_session = _Session()
gdb.events.stop.connect(_session.reset)
gdb.events.memory_changed.connect(_session.reset)
gdb.events.exited.connect(_session.forget)
gdb.events.new_objfile.connect(_session.forget)


class NxemuDisassembler(gdb.disassembler.Disassembler):
    def __init__(self, name):
        super().__init__(name)

    def __call__(self, info):
        inf = gdb.selected_inferior()
        core = _session.core_of_pid(inf.pid) if inf.pid else None
        if core is None:
            return None  # not ours: gdb's own disassembler
        key = (inf.num, info.address)
        hit = _session.cache.get(key)
        if hit is None:
            try:
                out = _monitor('disas %s 0x%x 8' % (core, info.address))
            except gdb.error:
                return None
            for line in out.splitlines():
                m = _DISAS_LINE.match(line)
                if m and int(m.group(2)) > 0:
                    _session.cache[(inf.num, int(m.group(1), 16))] = (int(m.group(2)),
                                                                      m.group(3))
            hit = _session.cache.get(key)
        if hit is None:
            # unreadable: let gdb report the memory error
            info.read_memory(1, 0)
            return None
        length, text = hit
        return gdb.disassembler.DisassemblerResult(length, text)


gdb.disassembler.register_disassembler(NxemuDisassembler('nxemu-seq'), 'riscv:rv64')
gdb.disassembler.register_disassembler(NxemuDisassembler('nxemu-tpc'), 'riscv:rv32')


class NxemuCores(gdb.Command):
    """List nxemu's cores: gdb pid, name, state, pc."""

    def __init__(self):
        super().__init__('nxemu-cores', gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        gdb.write(_monitor('info cores'))


class NxemuAttachAll(gdb.Command):
    """Attach every nxemu core as its own inferior (one process per core).

Needs `target extended-remote`.  Inferior 1 stays the boot core; afterwards
`set schedule-multiple on` makes `continue` resume every core (nxemu always
runs the whole machine anyway)."""

    def __init__(self):
        super().__init__('nxemu-attach-all', gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        _session.forget()
        pids = []
        for line in _monitor('info cores').splitlines():
            m = _CORE_LINE.match(line)
            if m:
                pids.append(int(m.group(1)))
        if not pids:
            raise gdb.GdbError('nxemu-attach-all: not connected to nxemu')
        start = gdb.selected_inferior().num
        attached = {i.pid for i in gdb.inferiors() if i.pid}
        for pid in pids:
            if pid in attached:
                continue
            free = [i for i in gdb.inferiors() if i.pid == 0]
            if free:
                num = free[0].num
            else:
                gdb.execute('add-inferior', to_string=True)
                num = max(i.num for i in gdb.inferiors())
            gdb.execute('inferior %d' % num, to_string=True)
            gdb.execute('attach %d' % pid, to_string=True)
            gdb.write('inferior %d: %s\n' % (num, _session.core_of_pid(pid) or pid))
        gdb.execute('inferior %d' % start, to_string=True)
        gdb.execute('set schedule-multiple on')


# element type -> (bytes per lane, struct code); bf16 is the upper half of an f32
_VTYPES = {'f32': (4, 'f'), 'bf16': (2, None), 'i32': (4, 'i'), 'u32': (4, 'I'),
           'i16': (2, 'h'), 'u16': (2, 'H'), 'i8': (1, 'b'), 'u8': (1, 'B')}


def _reg_bytes(name, field, count):
    try:
        v = gdb.parse_and_eval('$' + name)[field]
    except gdb.error as e:
        raise gdb.GdbError('nxemu-vreg: no register %s here (%s)' % (name, e))
    return bytes(int(v[i]) & 0xff for i in range(count))


def _lanes(raw, vtype):
    size, code = _VTYPES[vtype]
    n = len(raw) // size
    if code:
        return list(struct.unpack('<%d%s' % (n, code), raw))
    half = struct.unpack('<%dH' % n, raw)
    return [struct.unpack('<f', struct.pack('<I', h << 16))[0] for h in half]


def _cell(x):
    return ('%.7g' % x) if isinstance(x, float) else str(x)


class NxemuVreg(gdb.Command):
    """Show a TPC vector register as a grid of lanes.

Usage: nxemu-vreg Vn [TYPE] [VPm] [LO:HI]
  TYPE   f32 (default), bf16, i32, u32, i16, u16, i8, u8
  VPm    mark the lanes vector predicate VPm disables with a '~' after
         the value (lane i of
         an E-byte type is enabled by bit i*E, tpc-isa.rst)
  LO:HI  only lanes LO..HI-1"""

    def __init__(self):
        super().__init__('nxemu-vreg', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args or not re.fullmatch(r'[Vv]\d+', args[0]):
            raise gdb.GdbError('usage: nxemu-vreg Vn [TYPE] [VPm] [LO:HI]')
        reg, vtype, vp, lo, hi = args[0].upper(), 'f32', None, 0, None
        for a in args[1:]:
            if a in _VTYPES:
                vtype = a
            elif re.fullmatch(r'[Vv][Pp]\d+', a):
                vp = a.upper()
            elif re.fullmatch(r'\d+:\d+', a):
                lo, hi = (int(x) for x in a.split(':'))
            else:
                raise gdb.GdbError('nxemu-vreg: %r is not a type, a VPn or LO:HI' % a)
        vals = _lanes(_reg_bytes(reg, 'i8', 256), vtype)
        hi = len(vals) if hi is None else min(hi, len(vals))
        if lo >= hi:
            raise gdb.GdbError('nxemu-vreg: no lanes in %d:%d (%s has %d %s lanes)' %
                               (lo, hi, reg, len(vals), vtype))
        size = _VTYPES[vtype][0]
        on = [True] * len(vals)
        if vp:
            bits = int.from_bytes(_reg_bytes(vp, 'u8', 32), 'little')
            on = [bool(bits >> (i * size) & 1) for i in range(len(vals))]
        cells = [' %12s%s' % (_cell(vals[i]), ' ' if on[i] else '~') for i in range(len(vals))]
        gdb.write('%s as %s, lanes %d..%d%s\n' % (reg, vtype, lo, hi - 1,
                  ', ~ = disabled by ' + vp if vp else ''))
        for row in range(lo - lo % 8, hi, 8):
            shown = [cells[i] if lo <= i < hi else ' ' * 14 for i in range(row, min(row + 8, hi))]
            gdb.write('[%3d]%s\n' % (row, ''.join(shown)))


NxemuCores()
NxemuAttachAll()
NxemuVreg()
