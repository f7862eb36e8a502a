"""nxemu from Python: machines, memory, registers, runs, TPC kernel launches.

ctypes over libnxemu.so (include/nxemu/api.h); numpy is needed only by
nxemu.tpc.run.  docs/python.rst is the manual.

The library is found through $NXEMU_LIBRARY (a path), else as
"libnxemu.so" on the dynamic linker's path ($LD_LIBRARY_PATH, the install
libdir).
"""
import ctypes
import os
import shlex

__all__ = ["Error", "Machine", "version", "SEQ_REGS", "TPC_REGS"]


class Error(Exception):
    """An nxemu error: `message` is nxemu's one-line message (no "nxemu: "
    prefix), `status` the exit status nxemu would have (125 for usage,
    configuration and load errors; a run's status for run errors),
    `report` the run's diagnostic lines where there are any."""

    def __init__(self, message, status=125, report=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.report = report


def _load():
    path = os.environ.get("NXEMU_LIBRARY") or "libnxemu.so"
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"nxemu: cannot load {path} (set NXEMU_LIBRARY to the built "
                          f"build/python/libnxemu.so): {e}") from None
    P, I, U, U64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint64
    SP = ctypes.POINTER(ctypes.c_char_p)
    CPP = ctypes.POINTER(ctypes.c_void_p)
    argv = ctypes.POINTER(ctypes.c_char_p)
    sig = {
        "nxapi_new": (P, [I, argv, CPP]),
        "nxapi_free": (None, [P]),
        "nxapi_load": (I, [P, I, argv, CPP]),
        "nxapi_run": (I, [P, U64, U64, CPP]),
        "nxapi_mem_rw": (I, [P, U64, P, U64, I, CPP]),
        "nxapi_cpu_count": (U, [P, I]),
        "nxapi_reg_rw": (U, [P, I, U, U, P, ctypes.c_size_t, I]),
        "nxapi_cpu_state": (I, [P, I, U]),
        "nxapi_vtime": (U64, [P]),
        "nxapi_icount": (U64, [P]),
        "nxapi_tpc_run": (I, [I, argv, ctypes.c_char_p, CPP, CPP, ctypes.POINTER(U64), CPP,
                              CPP]),
        "nxapi_tpc_assemble": (I, [ctypes.c_char_p, ctypes.c_char_p, CPP,
                                   ctypes.POINTER(ctypes.c_size_t), CPP]),
        "nxapi_seq_assemble_file": (I, [ctypes.c_char_p, ctypes.c_char_p, I, CPP]),
        "nxapi_free_str": (None, [P]),
        "nxapi_version": (ctypes.c_char_p, []),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    del SP
    return lib


_lib = _load()


def _take_str(p):
    """A C string the library allocated, as str (freed)."""
    if not p.value:
        return ""
    s = ctypes.string_at(p.value).decode("utf-8", "replace")
    _lib.nxapi_free_str(p)
    return s


def _argv(prog, args):
    if isinstance(args, str):
        args = shlex.split(args)
    args = [os.fspath(a) for a in args]
    arr = (ctypes.c_char_p * (len(args) + 2))()
    arr[0] = prog.encode()
    for i, a in enumerate(args):
        arr[i + 1] = a.encode()
    arr[len(args) + 1] = None
    return len(args) + 1, arr


def _opts(options, kw):
    """nxemu options from a string/list and keyword arguments:
    machine="nc2,tpc=4" -> -machine nc2,tpc=4; m="1G" -> -m 1G;
    kernel="x.elf" -> -kernel x.elf; device=[...] -> -device each;
    tpc_strict=True -> -tpc-strict."""
    out = shlex.split(options) if isinstance(options, str) else list(options or [])
    for k, v in kw.items():
        opt = "-" + k.replace("_", "-")
        if v is None or v is False:
            continue
        if v is True:
            out.append(opt)
        elif isinstance(v, (list, tuple)):
            for item in v:
                out += [opt, os.fspath(item)]
        else:
            out += [opt, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
    return out


def version():
    """The library's version: "0.1.0 (git REV)"."""
    return _lib.nxapi_version().decode()


# Core register numbers (include/nxemu/gdbstub.h): name -> (number, bytes).
SEQ_REGS = {f"r{i}": (i, 4) for i in range(64)}
SEQ_REGS.update(pc=(64, 8), status=(65, 4), fault_code=(66, 4), fault_info=(67, 4),
                fault_pc=(68, 8), fault_addr=(69, 8), retired=(70, 8))
TPC_REGS = {f"s{i}": (i, 4) for i in range(36)}
TPC_REGS.update({f"sp{i}": (36 + i, 1) for i in range(16)})
TPC_REGS.update({f"v{i}": (52 + i, 256) for i in range(40)})
TPC_REGS.update({f"vp{i}": (92 + i, 32) for i in range(16)})
TPC_REGS.update({f"i{i}": (108 + i, 20) for i in range(32)})
TPC_REGS.update({f"ad{i}": (140 + i, 8) for i in range(8)})
TPC_REGS["pc"] = (148, 4)

CPU_STATES = ("RESET", "RUNNING", "BLOCKED", "HALTED", "FAULTED")


class _Core:
    def __init__(self, machine, kind, index):
        self._m, self._kind, self.index = machine, kind, index
        self._regs = SEQ_REGS if kind == 0 else TPC_REGS

    def _reg(self, name):
        try:
            return self._regs[name.lower()]
        except KeyError:
            raise Error(f"no register '{name}' on a {'sequencer' if self._kind == 0 else 'TPC'}"
                        ) from None

    def read_reg(self, name):
        """The register's bytes (little-endian); int() for scalar registers
        via read()."""
        num, size = self._reg(name)
        buf = ctypes.create_string_buffer(size)
        n = _lib.nxapi_reg_rw(self._m._h, self._kind, self.index, num, buf, size, 0)
        if n != size:
            raise Error(f"register {name}: cannot be read")
        return buf.raw

    def write_reg(self, name, value):
        """Write bytes, or an int (little-endian in the register's size)."""
        num, size = self._reg(name)
        if isinstance(value, int):
            value = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        value = bytes(value)
        if len(value) != size:
            raise Error(f"register {name}: {size} bytes expected, {len(value)} given")
        buf = ctypes.create_string_buffer(value, size)
        if _lib.nxapi_reg_rw(self._m._h, self._kind, self.index, num, buf, size, 1) != size:
            raise Error(f"register {name}: cannot be written")

    def __getitem__(self, name):
        """Scalar registers as unsigned ints, vectors as bytes."""
        raw = self.read_reg(name)
        return int.from_bytes(raw, "little") if len(raw) <= 8 else raw

    def __setitem__(self, name, value):
        self.write_reg(name, value)

    @property
    def state(self):
        s = _lib.nxapi_cpu_state(self._m._h, self._kind, self.index)
        return CPU_STATES[s] if 0 <= s < len(CPU_STATES) else "?"


class Machine:
    """An nc2 machine built from nxemu command-line options, as a string or
    a list, plus keyword options: Machine("-M nc2,tpc=4 -m 1G"),
    Machine(machine="nc2,tpc=4", m="1G", kernel="prog.elf").  Images given
    are loaded (-kernel, -device loader,...).  Raises nxemu.Error."""

    def __init__(self, options="", **kw):
        self._h = None
        argc, argv = _argv("nxemu", _opts(options, kw))
        err = ctypes.c_void_p()
        h = _lib.nxapi_new(argc, argv, ctypes.byref(err))
        if not h:
            raise Error(_take_str(err))
        self._h = h
        self.status = None
        self.report = ""
        self.seq = [_Core(self, 0, i) for i in range(_lib.nxapi_cpu_count(h, 0))]
        self.tpc = [_Core(self, 1, i) for i in range(_lib.nxapi_cpu_count(h, 1))]

    def close(self):
        if self._h:
            _lib.nxapi_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def load(self, options="", **kw):
        """Load more images: load("-device loader,file=k.o,addr=0x2000000,tpc-num=0"),
        load(kernel="prog.elf")."""
        argc, argv = _argv("nxemu", _opts(options, kw))
        err = ctypes.c_void_p()
        if _lib.nxapi_load(self._h, argc, argv, ctypes.byref(err)) != 0:
            raise Error(_take_str(err))

    def load_kernel(self, path):
        """-kernel PATH: a sequencer ELF or FIT for core 0."""
        self.load(["-kernel", path])

    def run(self, cycle_limit=None, icount_limit=None, check=False):
        """Run to the end (or a limit); returns the exit status of machine.md
        §9.2 (0 normal end or PASS, 1..122 FAIL, 123 limit, 124 deadlock,
        128+N fault).  self.report holds the diagnostic lines.  With
        check=True a non-zero status raises nxemu.Error."""
        rep = ctypes.c_void_p()
        st = _lib.nxapi_run(self._h, cycle_limit or 0, icount_limit or 0, ctypes.byref(rep))
        self.status, self.report = st, _take_str(rep)
        if check and st != 0:
            first = self.report.splitlines()[0] if self.report else f"exit status {st}"
            raise Error(first.removeprefix("nxemu: "), st, self.report)
        return st

    def read(self, addr, size):
        """size bytes of guest memory at PA addr."""
        buf = ctypes.create_string_buffer(size)
        err = ctypes.c_void_p()
        if _lib.nxapi_mem_rw(self._h, addr, buf, size, 0, ctypes.byref(err)) != 0:
            raise Error(_take_str(err))
        return buf.raw

    def write(self, addr, data):
        """Write bytes (or anything with the buffer protocol, e.g. an ndarray)."""
        data = bytes(memoryview(data).cast("B"))
        buf = ctypes.create_string_buffer(data, len(data))
        err = ctypes.c_void_p()
        if _lib.nxapi_mem_rw(self._h, addr, buf, len(data), 1, ctypes.byref(err)) != 0:
            raise Error(_take_str(err))

    def read_u32(self, addr):
        return int.from_bytes(self.read(addr, 4), "little")

    def write_u32(self, addr, value):
        self.write(addr, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    @property
    def vtime(self):
        return _lib.nxapi_vtime(self._h)

    @property
    def icount(self):
        return _lib.nxapi_icount(self._h)


def _seq_assemble(text, raw=False):
    """Sequencer source text -> ELF (or raw) bytes (nxemu-as).  The
    assembler's messages go to stderr; an error raises nxemu.Error."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="nxemu-as-") as d:
        src, out = os.path.join(d, "in.s"), os.path.join(d, "out.elf")
        with open(src, "w") as f:
            f.write(text)
        err = ctypes.c_void_p()
        if _lib.nxapi_seq_assemble_file(src.encode(), out.encode(), int(raw),
                                        ctypes.byref(err)) != 0:
            raise Error(_take_str(err), 1)
        with open(out, "rb") as f:
            return f.read()


class _SeqNs:
    assemble = staticmethod(_seq_assemble)


seq = _SeqNs()

from . import tpc  # noqa: E402,F401
