"""nxemu from Python: machines, memory, registers, runs, TPC kernel launches.

ctypes over libnxemu.so (include/nxemu/api.h); numpy is needed only by
nxemu.tpc.run.  docs/python.rst is the manual.

The library is found by itself (_library_candidates): the installed one
(`make install`), the build folder of the source tree the package was
installed from (`pip install ./python`) or lives in, the one beside an
`nxemu` on PATH, then "libnxemu.so" on the dynamic linker's path.
$NXEMU_LIBRARY (a path) overrides them all.
"""
import ctypes
import glob
import os
import shlex
import shutil

__all__ = ["Error", "Machine", "version", "SEQ_REGS", "TPC_REGS", "DEFAULT_CYCLE_LIMIT"]


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


def _library_candidates():
    """Where libnxemu.so may be, most specific first."""
    env = os.environ.get("NXEMU_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    try:
        from . import _paths  # written by `make install` or `pip install`
    except ImportError:
        _paths = None
    if _paths is not None:
        if _paths.REL_LIBRARY:
            out.append(os.path.normpath(os.path.join(here, _paths.REL_LIBRARY)))
        if _paths.LIBRARY:
            out.append(_paths.LIBRARY)
        out += [os.path.join(d, "python", "libnxemu.so") for d in _paths.BUILD_DIRS]
    # the package in its source tree (python/nxemu): ../../build
    out.append(os.path.normpath(os.path.join(here, "..", "..", "build", "python", "libnxemu.so")))
    exe = shutil.which("nxemu")
    if exe:
        bindir = os.path.dirname(os.path.realpath(exe))
        out.append(os.path.join(bindir, "python", "libnxemu.so"))  # a build folder
        out += sorted(glob.glob(os.path.join(bindir, "..", "lib", "*", "libnxemu.so")))
        out.append(os.path.join(bindir, "..", "lib", "libnxemu.so"))
    return out


def _load():
    tried = []
    lib = None
    for path in _library_candidates():
        if os.path.isfile(path) or path == os.environ.get("NXEMU_LIBRARY"):
            try:
                lib = ctypes.CDLL(path)
                break
            except OSError as e:
                tried.append(f"{path} ({e})")
        else:
            tried.append(path)
    if lib is None:
        try:
            lib = ctypes.CDLL("libnxemu.so")  # the dynamic linker's path
        except OSError:
            raise ImportError("nxemu: libnxemu.so not found (build nxemu with `make`, or "
                              "`make install` it; tried " + ", ".join(tried + ["libnxemu.so"]) +
                              "; $NXEMU_LIBRARY names it explicitly)") from None
    lib._nxemu_path = getattr(lib, "_name", "libnxemu.so")
    P, I, U, U64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint64
    SP = ctypes.POINTER(ctypes.c_char_p)
    CPP = ctypes.POINTER(ctypes.c_void_p)
    argv = ctypes.POINTER(ctypes.c_char_p)
    sig = {
        "nxapi_new": (P, [I, argv, CPP]),
        "nxapi_free": (None, [P]),
        "nxapi_load": (I, [P, I, argv, CPP]),
        "nxapi_run": (I, [P, U64, U64, CPP]),
        "nxapi_run_for": (I, [P, U64, U64, CPP]),
        "nxapi_ended": (I, [P]),
        "nxapi_console": (P, [P]),
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
        "nxapi_launcher_path": (P, []),
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

# A run from Python stops here unless told otherwise (cycle_limit=None for
# no limit): a kernel or program that never ends must not hang the caller.
DEFAULT_CYCLE_LIMIT = 200_000_000

_PAUSED, _INTERRUPTED = -1, -2


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
    def cpu_state(self):
        """The core's own state: RESET, RUNNING, BLOCKED, HALTED, FAULTED."""
        s = _lib.nxapi_cpu_state(self._m._h, self._kind, self.index)
        return CPU_STATES[s] if 0 <= s < len(CPU_STATES) else "?"

    @property
    def state(self):
        """cpu_state, except that a core still running or blocked when the
        machine ended (a PASS, a limit, another core's fault) is ENDED."""
        s = self.cpu_state
        if s in ("RUNNING", "BLOCKED") and _lib.nxapi_ended(self._m._h):
            return "ENDED"
        return s


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
        self._console = ""
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

    def run(self, cycle_limit=DEFAULT_CYCLE_LIMIT, icount=None, check=False, icount_limit=None):
        """Run on from where the machine is, to its end; returns the exit
        status of the run (0 normal end or PASS, 1..122 FAIL, 123 limit,
        124 deadlock, 128+N fault); self.report holds the diagnostic lines.

        icount=N: stop after N more sequencer instructions (machine-wide),
        at the end of the round they fall in, and return None: the machine
        can be inspected and run on (step() is run(icount=1)).
        cycle_limit: the virtual time at which the run ends with status 123
        (absolute; nxemu.DEFAULT_CYCLE_LIMIT unless given; None = none);
        it replaces the machine's -cycle-limit and an earlier run's.
        icount_limit: the machine-wide -icount-limit, ending the run.
        Ctrl-C (SIGINT) stops the run at the next round boundary and raises
        KeyboardInterrupt; the machine can be inspected and run on.
        With check=True a non-zero status raises nxemu.Error."""
        rep = ctypes.c_void_p()
        # None: no limit, also over a limit an earlier run() or -cycle-limit set
        limit = (1 << 64) - 1 if cycle_limit is None else cycle_limit
        if icount_limit:
            st = _lib.nxapi_run(self._h, limit, icount_limit, ctypes.byref(rep))
        else:
            st = _lib.nxapi_run_for(self._h, limit, icount or 0, ctypes.byref(rep))
        report = _take_str(rep)
        self._console += _take_str(ctypes.c_void_p(_lib.nxapi_console(self._h)))
        if st == _PAUSED:
            return None
        if st == _INTERRUPTED:
            self.report = report
            raise KeyboardInterrupt(report.strip().removeprefix("nxemu: "))
        self.status, self.report = st, report
        if st == 123 and cycle_limit == DEFAULT_CYCLE_LIMIT and "limit" in report:
            self.report = report + (f"nxemu: the default cycle limit ({cycle_limit}) of "
                                    "nxemu.Machine.run: pass cycle_limit= (None for none)\n")
        if check and st != 0:
            first = self.report.splitlines()[0] if self.report else f"exit status {st}"
            raise Error(first.removeprefix("nxemu: "), st, self.report)
        return st

    def step(self, n=1):
        """Run n more sequencer instructions (see run(icount=)): None while
        the machine goes on, its exit status once it ended."""
        return self.run(icount=n)

    @property
    def state(self):
        """READY (can run on) or ENDED (PASS/FAIL, normal end, fault,
        limit, deadlock: status and report say which)."""
        return "ENDED" if _lib.nxapi_ended(self._h) else "READY"

    @property
    def console(self):
        """Everything the guest wrote to the test device's console so far
        (captured, not printed)."""
        self._console += _take_str(ctypes.c_void_p(_lib.nxapi_console(self._h)))
        return self._console

    def read(self, addr, size):
        """size bytes of guest memory at PA addr."""
        buf = ctypes.create_string_buffer(size)
        err = ctypes.c_void_p()
        if _lib.nxapi_mem_rw(self._h, addr, buf, size, 0, ctypes.byref(err)) != 0:
            raise Error(_take_str(err))
        return buf.raw

    def write(self, addr, data):
        """Write bytes (or anything with the buffer protocol, e.g. an ndarray).
        An aligned 4- or 8-byte write outside memory is a device register
        write, with its effect (write_u32 to a TPC window launches it)."""
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


def _seq_assemble(text, raw=False, name="<text>"):
    """Sequencer source text -> ELF (or raw) bytes (nxemu-as).  An error
    raises nxemu.Error with the assembler's "name:line:col: error: ..."
    lines as its message."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="nxemu-as-") as d:
        src, out = os.path.join(d, "in.s"), os.path.join(d, "out.elf")
        with open(src, "w") as f:
            f.write(text)
        err = ctypes.c_void_p()
        if _lib.nxapi_seq_assemble_file(src.encode(), out.encode(), int(raw),
                                        ctypes.byref(err)) != 0:
            msg = _take_str(err).replace(src, name)
            raise Error(msg, 1)
        with open(out, "rb") as f:
            return f.read()


class _SeqNs:
    assemble = staticmethod(_seq_assemble)


seq = _SeqNs()

from . import tpc  # noqa: E402,F401
