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
import re

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


NxemuCores()
NxemuAttachAll()
