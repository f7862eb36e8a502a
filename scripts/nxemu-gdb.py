# gdb 13 helpers for nxemu (docs/gdb.rst).  Load with:
#     (gdb) source scripts/nxemu-gdb.py
# or let gdb auto-load it from a program assembled with `nxemu-as -g`, which
# carries this file in its .debug_gdb_scripts section.  Loading it again (a
# second program or kernel, a second `source`) replaces the first load.
#
# * A disassembler for the two core types: nxemu's sequencers pose as
#   riscv:rv64 and its TPCs as riscv:rv32, so gdb would decode our bytes as
#   RISC-V.  This one asks the stub (`monitor disas CORE ADDR`), which uses
#   the emulator's own disassembler, so `x/i`, `display/i` and `disassemble`
#   show real instructions with their real lengths (64-byte sequencer
#   records, 32-byte TPC bundles).  Inferiors that are not nxemu cores keep
#   gdb's built-in disassembler.
# * `nxemu-attach-all`: attach every process of the connection (the TPCs'
#   process 2; with -gdb DEV,cores=processes one per core) with
#   add-inferior / attach PID, and `set schedule-multiple on`.
# * `nxemu-cores`: the cores, their gdb threads (or pids) and states.
# * `kill` of one core's inferior kills the other cores' inferiors too (a
#   `hookpost-kill`): the stub runs a killed machine no more.
# * A core attached by hand from another inferior ends inferior 1's quiet
#   state, as nxemu-attach-all does (a `hookpost-attach`).
# * Loaded before `target extended-remote` (auto-loaded from a -g program on
#   gdb's command line, or -x), it attaches the TPCs' process in inferior 2
#   right after the connect, as nxemu-attach-all does (a hookpost of that
#   command), and refuses a second `attach` from that inferior.
# * `nxemu-vreg Vn [TYPE] [VPm] [LO:HI]`: a TPC vector register as a grid of
#   lanes in one element type, optionally with a vector predicate's lanes
#   marked and only some lanes shown.
# * `nxemu-tensor T [TYPE] [R0:R1] [C0:C1] [@I2,I3,I4]`: the data of tensor
#   descriptor T of the current TPC inferior as a 2-D array (dim 1 down,
#   dim 0 across), read through the TPC's configuration window.
import re
import struct

import gdb
import gdb.disassembler

# `monitor info cores`: "thread P.T NAME ..." (the stub's threads model, its
# default) or "pid P NAME ..." (-gdb DEV,cores=processes, one core a process)
_CORE_LINE = re.compile(r'^(?:pid (\d+)|thread (\d+)\.(\d+)) ((?:seq|tpc)\d+) state=(\w+) '
                        r'pc=(0x[0-9a-f]+)')
_DISAS_LINE = re.compile(r'^0x([0-9a-f]+) (\d+) (.*)$')


def _monitor(cmd):
    return gdb.execute('monitor ' + cmd, to_string=True)


def _core_lines():
    """(pid, thread number in that process, core name) per core."""
    out = []
    for line in _monitor('info cores').splitlines():
        m = _CORE_LINE.match(line)
        if m and m.group(1):
            out.append((int(m.group(1)), 1, m.group(4)))
        elif m:
            out.append((int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


class _Session:
    """Per-connection knowledge: (pid, thread) -> core name, disassembly
    cache."""

    def __init__(self):
        self.cores = None  # (pid, thread number) -> name
        self.cache = {}

    def core_of_thread(self, pid, tid):
        if self.cores is None:
            self.cores = {}
            try:
                for p, n, name in _core_lines():
                    self.cores[(p, n)] = name
            except gdb.error:
                self.cores = None
                return None
        return self.cores.get((pid, tid))

    def core_of_inferior(self, inf):
        """The core of inf's selected thread (of its first when another
        inferior is selected), or None."""
        if not inf.pid:
            return None
        th = gdb.selected_thread()
        if th is None or th.inferior != inf:
            ths = inf.threads()
            th = min(ths, key=lambda x: x.num) if ths else None
        # a remote thread pP.T is ptid (P, T, 0)
        return self.core_of_thread(th.ptid[0], th.ptid[1]) if th is not None else None

    def has_pid(self, pid):
        self.core_of_thread(0, 0)
        return any(p == pid for p, _ in (self.cores or {}))

    def reset(self, *_):
        self.cache.clear()

    def forget(self, *_):
        self.cores = None
        self.cache.clear()


_session = _Session()


def _flush_other_inferiors(event):
    """nxemu runs the whole machine whatever gdb resumed, but gdb re-reads
    only the registers of the inferiors it resumed: with several inferiors,
    forget every cached register at each stop so none shows stale values."""
    if len([i for i in gdb.inferiors() if i.pid]) > 1:
        gdb.execute('maint flush register-cache', to_string=True)


# a second load disconnects the first one's handlers (commands and
# disassemblers replace their namesakes by themselves)
for _registry, _handler in getattr(gdb, '_nxemu_handlers', ()):
    _registry.disconnect(_handler)
gdb._nxemu_handlers = [(gdb.events.stop, _session.reset),
                       (gdb.events.stop, _flush_other_inferiors),
                       (gdb.events.memory_changed, _session.reset),
                       (gdb.events.exited, _session.forget),
                       (gdb.events.new_objfile, _session.forget)]
for _registry, _handler in gdb._nxemu_handlers:
    _registry.connect(_handler)


class NxemuDisassembler(gdb.disassembler.Disassembler):
    def __init__(self, name):
        super().__init__(name)

    def __call__(self, info):
        inf = gdb.selected_inferior()
        core = _session.core_of_inferior(inf)
        if core is None:
            return None  # not ours: gdb's own disassembler
        key = (core, info.address)
        hit = _session.cache.get(key)
        if hit is None:
            try:
                out = _monitor('disas %s 0x%x 8' % (core, info.address))
            except gdb.error:
                return None
            for line in out.splitlines():
                m = _DISAS_LINE.match(line)
                if m and int(m.group(2)) > 0:
                    _session.cache[(core, int(m.group(1), 16))] = (int(m.group(2)),
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
    """Attach every process of nxemu: the TPCs' (inferior 2; with
-gdb DEV,cores=processes, one inferior per core).

Needs `target extended-remote`.  Inferior 1 stays the boot core; afterwards
`set schedule-multiple on` makes `continue` resume every core (nxemu always
runs the whole machine anyway).  Inferior 1 is detached and attached again
last: gdb 13 keeps the inferior of `target extended-remote` "stopping
quietly" until it is resumed as the current inferior, and would hang on a
stop of the boot core after a `continue` from another inferior."""

    def __init__(self):
        super().__init__('nxemu-attach-all', gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        _session.forget()
        pids = []
        for p, _, _ in _core_lines():
            if p not in pids:
                pids.append(p)
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
            names = [n for (p, _), n in sorted(_session.cores.items()) if p == pid] \
                if _session.has_pid(pid) else []
            gdb.write('inferior %d: %s\n' % (num, ', '.join(names) or pid))
        _unquiet_boot_core(start)
        gdb.execute('inferior %d' % start, to_string=True)
        gdb.execute('set schedule-multiple on')


def _unquiet_boot_core(back):
    """gdb 13 keeps the inferior of `target extended-remote` (inferior 1,
    the boot core) "stopping quietly" until it is resumed as the current
    inferior or attached again, and hangs for good on a stop of that core
    reported before: after `set schedule-multiple on` and a `continue` from
    another inferior, say.  Once another core is attached on the
    connection, detach inferior 1 and attach it again (the other cores stay
    attached, so the stub keeps the machine stopped meanwhile), then select
    inferior `back` again.  Once per connection."""
    boot = [i for i in gdb.inferiors() if i.num == 1 and i.pid]
    if not boot or boot[0].connection_num in _unquieted:
        return
    live = [i for i in gdb.inferiors() if i.pid and i.connection_num == boot[0].connection_num]
    if len(live) < 2 or boot[0].pid != 1 or not _session.has_pid(1):
        return
    _unquieted.add(boot[0].connection_num)
    gdb.execute('inferior 1', to_string=True)
    gdb.execute('detach', to_string=True)
    gdb.execute('attach 1', to_string=True)
    gdb.execute('inferior %d' % back, to_string=True)


def _after_attach():
    """hookpost-attach: a core attached by hand ends the boot core's quiet
    state as nxemu-attach-all does (_unquiet_boot_core)."""
    cur = gdb.selected_inferior().num
    if cur != 1:
        _unquiet_boot_core(cur)


# connection numbers whose inferior 1 was attached again; kept across a
# second load of the script (a kernel's .debug_gdb_scripts after the connect)
_unquieted = getattr(gdb, '_nxemu_unquieted', set())
gdb._nxemu_unquieted = _unquieted
gdb._nxemu_after_attach = _after_attach
gdb.execute('define hookpost-attach\npython gdb._nxemu_after_attach()\nend')


def _kill_other_cores():
    """After `kill` of one inferior of an nxemu connection: the machine is
    one, the stub runs it no more after a kill, so kill every other
    inferior of that connection as well (with nxemu-attach-all, `kill`
    would otherwise leave the other cores' inferiors live in gdb)."""
    cur = gdb.selected_inferior()
    others = [i.num for i in gdb.inferiors()
              if i.pid and i.num != cur.num and i.connection_num == cur.connection_num]
    if not others:
        return
    confirm = gdb.parameter('confirm')
    gdb.execute('set confirm off')
    try:
        gdb.execute('kill inferiors ' + ' '.join(str(n) for n in others))
    finally:
        gdb.execute('set confirm ' + ('on' if confirm else 'off'))


gdb._nxemu_kill_other_cores = _kill_other_cores


def _after_connect():
    """hookpost of `target extended-remote`: on a connection to nxemu's
    threads model with TPCs, attach the TPCs' process 2 in inferior 2 and
    make inferior 1 leave its quiet state, as nxemu-attach-all does, so the
    TPCs are threads of gdb right after the connect.  gdb 13 cannot do it
    by itself: it reads the target description of the inferior it connects
    and of a process it attaches, never of one it finds in the thread list."""
    _session.forget()
    try:
        cores = _monitor('info cores')
    except gdb.error:
        return  # not nxemu
    # the threads model's TPC lines; cores=processes names pids instead
    if not re.search(r'^thread 2\.\d+ tpc', cores, re.M):
        return
    if any(i.pid == 2 for i in gdb.inferiors()):
        return
    quiet = gdb.parameter('suppress-cli-notifications')
    gdb.execute('set suppress-cli-notifications on')
    try:
        gdb.execute('nxemu-attach-all', to_string=False)
    finally:
        gdb.execute('set suppress-cli-notifications ' + ('on' if quiet else 'off'))
    for i in gdb.inferiors():
        if i.pid == 2:
            _attached_at_connect.add((i.connection_num, i.num))


gdb._nxemu_after_connect = _after_connect


def _before_attach():
    """hook-attach: `attach` from the inferior attached at connect (the
    manual recipe: add-inferior, inferior 2, attach 2) would make gdb kill
    its process and attach it again; refuse it instead, so that the recipe
    goes on with that inferior as it is."""
    cur = gdb.selected_inferior()
    if cur.pid and (cur.connection_num, cur.num) in _attached_at_connect:
        raise gdb.GdbError('nxemu: inferior %d is process %d already, attached at connect'
                           % (cur.num, cur.pid))


# (connection number, inferior number), kept across loads as _unquieted
_attached_at_connect = getattr(gdb, '_nxemu_attached_at_connect', set())
gdb._nxemu_attached_at_connect = _attached_at_connect
gdb._nxemu_before_attach = _before_attach
gdb.execute('define hook-attach\npython gdb._nxemu_before_attach()\nend')
gdb.execute('define target hookpost-extended-remote\n'
            'python gdb._nxemu_after_connect()\nend')
gdb.execute('define hookpost-kill\npython gdb._nxemu_kill_other_cores()\nend')


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


# TPC t's configuration window (docs/machine.rst, "TPC windows"): the kernel
# view at offset 0, tensor descriptor T at 0x400 + 0x38*T.
_TPC_WINDOW, _TPC_WINDOW_STRIDE = 0x2804000000, 0x10000
_DESC, _DESC_SIZE = 0x400, 0x38
_HEX_LINE = re.compile(r'^0x[0-9a-f]+:((?: [0-9a-f]{2})+)$')


def _xp(addr, length):
    """length bytes of physical memory through `monitor xp`."""
    out = bytearray()
    while len(out) < length:
        n = min(4096, length - len(out))
        txt = _monitor('xp 0x%x %d' % (addr + len(out), n))
        got = bytearray()
        for line in txt.splitlines():
            m = _HEX_LINE.match(line)
            if not m:
                raise gdb.GdbError('nxemu-tensor: ' + line.strip())
            got += bytes(int(b, 16) for b in m.group(1).split())
        if len(got) != n:
            raise gdb.GdbError('nxemu-tensor: short read at 0x%x' % (addr + len(out)))
        out += got
    return bytes(out)


def _signed32(v):
    return v - (1 << 32) if v & 0x80000000 else v


class NxemuTensor(gdb.Command):
    """Show a TPC tensor's data as a 2-D array, through its descriptor.

Usage: nxemu-tensor T [TYPE] [R0:R1] [C0:C1] [@I2,I3,I4]
  T      tensor descriptor 0..15 of the current inferior's TPC
  TYPE   element type (default from DATA_TYPE: 4 bytes f32, 2 bf16, 1 i8);
         f32, bf16, i32, u32, i16, u16, i8, u8 of the same size
  R0:R1  rows (dim 1 indices) shown, default the first 16
  C0:C1  columns (dim 0 indices) shown, default the first 8
  @I2,.. indices of dims 2..4 (default 0)"""

    def __init__(self):
        super().__init__('nxemu-tensor', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args or not re.fullmatch(r'\d+', args[0]) or int(args[0]) > 15:
            raise gdb.GdbError('usage: nxemu-tensor T [TYPE] [R0:R1] [C0:C1] [@I2,I3,I4] '
                               '(T = 0..15)')
        t = int(args[0])
        core = _session.core_of_inferior(gdb.selected_inferior())
        if not core or not core.startswith('tpc'):
            raise gdb.GdbError('nxemu-tensor: the current inferior is not a TPC '
                               '(nxemu-cores lists them)')
        window = _TPC_WINDOW + int(core[3:]) * _TPC_WINDOW_STRIDE
        d = _xp(window + _DESC + _DESC_SIZE * t, _DESC_SIZE)
        base = struct.unpack_from('<Q', d, 0)[0]
        config = struct.unpack_from('<I', d, 0xC)[0]
        sizes = [struct.unpack_from('<I', d, 0x10 + 8 * k)[0] for k in range(5)]
        strides = [_signed32(struct.unpack_from('<I', d, 0x14 + 8 * k)[0]) for k in range(5)]
        code = config & 7
        if code > 2:
            raise gdb.GdbError('nxemu-tensor: tensor %d has DATA_TYPE %d (only 0..2 are valid)'
                               % (t, code))
        esize = 1 << code
        vtype = {1: 'i8', 2: 'bf16', 4: 'f32'}[esize]
        rows, cols, upper = None, None, [0, 0, 0]
        for a in args[1:]:
            if a in _VTYPES:
                if _VTYPES[a][0] != esize:
                    raise gdb.GdbError('nxemu-tensor: %s is %d bytes, tensor %d has %d-byte '
                                       'elements' % (a, _VTYPES[a][0], t, esize))
                vtype = a
            elif re.fullmatch(r'\d+:\d+', a):
                rng = tuple(int(x) for x in a.split(':'))
                if rows is None:
                    rows = rng
                elif cols is None:
                    cols = rng
                else:
                    raise gdb.GdbError('nxemu-tensor: at most two ranges (rows, columns)')
            elif re.fullmatch(r'@\d+(,\d+){0,2}', a):
                given = [int(x) for x in a[1:].split(',')]
                upper = given + [0] * (3 - len(given))
            else:
                raise gdb.GdbError('nxemu-tensor: %r is not a type, a range or @I2,I3,I4' % a)
        valid = (config >> 8) & 0x1f
        # a dim not in VALID_DIM_MASK does not exist: one index, no stride
        sizes = [sizes[k] if valid >> k & 1 else 1 for k in range(5)]
        strides = [strides[k] if valid >> k & 1 else 0 for k in range(5)]
        r0, r1 = rows if rows else (0, min(sizes[1], 16))
        c0, c1 = cols if cols else (0, min(sizes[0], 8))
        r1, c1 = min(r1, sizes[1]), min(c1, sizes[0])
        for k in range(3):
            if upper[k] >= sizes[k + 2]:
                raise gdb.GdbError('nxemu-tensor: index %d of dim %d is outside its size %d'
                                   % (upper[k], k + 2, sizes[k + 2]))
        gdb.write('tensor %d of %s: base=0x%x %s dims=%s strides=%s\n' % (
            t, core, base, vtype, 'x'.join(str(x) for x in sizes[:max(1, valid.bit_length())]),
            ','.join(str(x) for x in strides[:max(1, valid.bit_length())])))
        if r0 >= r1 or c0 >= c1:
            gdb.write('(no elements in rows %d:%d, columns %d:%d)\n' % (r0, r1, c0, c1))
            return
        gdb.write('rows %d..%d, columns %d..%d%s\n' % (
            r0, r1 - 1, c0, c1 - 1, ' at @%d,%d,%d' % tuple(upper) if any(upper) else ''))
        off_upper = sum(upper[k] * strides[k + 2] for k in range(3))
        for r in range(r0, r1):
            first = off_upper + r * strides[1]
            if strides[0] == 1:
                raw = _xp(base + esize * (first + c0), esize * (c1 - c0))
            else:
                raw = b''.join(_xp(base + esize * (first + c * strides[0]), esize)
                               for c in range(c0, c1))
            vals = _lanes(raw, vtype)
            gdb.write('[%3d]%s\n' % (r, ''.join(' %12s' % _cell(v) for v in vals)))


NxemuCores()
NxemuAttachAll()
NxemuVreg()
NxemuTensor()
