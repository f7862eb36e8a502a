"""TPC kernels on numpy arrays: nxemu.tpc.run launches one kernel on N TPCs
of a full nc2 machine through the reference launcher, as nxemu-tpc-run does
(docs/tpc-run.rst), with tensors from and to numpy arrays.

Shapes are numpy's (C order, last axis fastest); nxemu's SHAPE d0xd1x...
names dim 0 (innermost) first, so a numpy shape (5, 100) is tensor
"100x5": dim 0 has 100 elements.  The index space, like nxemu-tpc-run's
--index-space, is dim 0 first.

The launcher is found through $NXEMU_TPC_LAUNCHER, else next to the
library: ../pc-bios/launcher.elf (build tree) or ../share/nxemu/launcher.elf
(installed).
"""
import ctypes
import os
import tempfile

from . import Error, _argv, _lib, _take_str

__all__ = ["run", "assemble", "DTYPES"]

# nxemu dtype -> numpy dtype name (bf16 travels as its uint16 bit patterns).
DTYPES = {"f32": "float32", "bf16": "uint16", "i32": "int32", "u32": "uint32",
          "i16": "int16", "u16": "uint16", "i8": "int8", "u8": "uint8"}


def assemble(text, name="<text>"):
    """TPC assembly source -> ELF object bytes (nxemu-as -t tpc).  An error
    raises nxemu.Error with the assembler's file:line:col lines."""
    out = ctypes.c_void_p()
    n = ctypes.c_size_t()
    err = ctypes.c_void_p()
    if _lib.nxapi_tpc_assemble(name.encode(), text.encode(), ctypes.byref(out), ctypes.byref(n),
                               ctypes.byref(err)) != 0:
        raise Error(_take_str(err), 1)
    data = ctypes.string_at(out.value, n.value)
    _lib.nxapi_free_str(out)
    return data


def _nx_dtype(np, dtype):
    if isinstance(dtype, str) and dtype.lower() in DTYPES:
        return dtype.lower()
    dt = np.dtype(dtype)
    for k, v in DTYPES.items():
        if k != "bf16" and dt == np.dtype(v):
            return k
    raise Error(f"dtype {dt}: not a TPC tensor type ({', '.join(DTYPES)})")


def _spec(name, shape, nxd):
    if not 1 <= len(shape) <= 5 or any(int(d) < 1 for d in shape):
        raise Error(f"{name}: shape {tuple(shape)}: 1 to 5 sizes >= 1")
    return f"{name}:{'x'.join(str(int(d)) for d in reversed(shape))}:{nxd}"


def _launcher():
    env = os.environ.get("NXEMU_TPC_LAUNCHER")
    if env:
        return env
    lib = os.environ.get("NXEMU_LIBRARY")
    if lib:
        d = os.path.dirname(os.path.abspath(lib))
        for cand in (os.path.join(d, "..", "pc-bios", "launcher.elf"),
                     os.path.join(d, "..", "share", "nxemu", "launcher.elf")):
            if os.path.isfile(cand):
                return cand
    raise Error("launcher.elf not found (set NXEMU_TPC_LAUNCHER, or NXEMU_LIBRARY to a "
                "build tree's python/libnxemu.so)")


class Result(list):
    """The output arrays (a list), with the run's figures: bundles, cycles
    (summed over the launched TPCs), vtime, status and report."""


def run(kernel, inputs=(), outputs=(), index_space=(1,), tpcs=1, index_base=None, args=(),
        fargs=None, machine=None, kernel_config=None, sem=None, cycle_limit=None,
        launcher=None, check=True, descriptors=None):
    """Launch `kernel` (ELF bytes, or a path) on TPCs 0..tpcs-1.

    inputs: numpy arrays (any C-contiguous layout is copied), or
        (array, "bf16") for bf16 bit patterns in uint16 arrays;
    outputs: (shape, dtype) pairs, dtype a numpy dtype or an nxemu name;
    tensors are descriptors 0..T-1, inputs first;
    index_space / index_base: dim 0 first, as --index-space/--index-base;
    args: 32-bit integer kernel arguments (S0, S1, ...), or floats (as
        f32, like --farg); machine: -machine edits ("hbm=2G,quantum=64");
    descriptors: the descriptor of each tensor, inputs then outputs, as
        --descriptors (a kernel whose glue puts an input after an output).

    Returns a Result: the output arrays, with .bundles .cycles .vtime.
    A non-zero exit status (fault, limit, launcher FAIL) raises
    nxemu.Error(message, status, report) when check is true; with
    check=False the Result has .status and .report and the outputs are None.
    """
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="nxemu-tpc-") as tmp:
        if isinstance(kernel, (bytes, bytearray, memoryview)):
            kpath = os.path.join(tmp, "kernel.o")
            with open(kpath, "wb") as f:
                f.write(kernel)
        else:
            kpath = os.fspath(kernel)
        argv = ["-k", kpath, "-n", str(tpcs),
                "--index-space", ",".join(str(int(s)) for s in index_space)]
        if index_base is not None:
            argv += ["--index-base", ",".join(str(int(b)) for b in index_base)]
        if descriptors is not None:
            argv += ["--descriptors", ",".join(str(int(d)) for d in descriptors)]
        ins = []
        for i, a in enumerate(inputs):
            nxd = None
            if isinstance(a, tuple):
                a, nxd = a
            a = np.ascontiguousarray(a)
            nxd = _nx_dtype(np, nxd or a.dtype)
            if a.dtype.itemsize != np.dtype(DTYPES[nxd]).itemsize:
                raise Error(f"input {i}: {a.dtype} elements for a {nxd} tensor")
            ins.append(a)
            argv += ["-i", _spec(f"in{i}", a.shape, nxd)]
        outs = []
        for j, (shape, dtype) in enumerate(outputs):
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            nxd = _nx_dtype(np, dtype)
            npd = np.dtype(DTYPES[nxd]) if isinstance(dtype, str) else np.dtype(dtype)
            outs.append(np.zeros(shape, dtype=npd))
            argv += ["-o", _spec(f"out{j}", shape, nxd)]
        for v in args:
            argv += ["--farg" if isinstance(v, float) else "--arg", repr(v)]
        for v in fargs or ():
            argv += ["--farg", repr(float(v))]
        if machine:
            argv += ["-M", machine]
        if kernel_config is not None:
            argv += ["--kernel-config", str(kernel_config)]
        if sem is not None:
            argv += ["--sem", str(sem)]
        if cycle_limit is not None:
            argv += ["--cycle-limit", str(cycle_limit)]
        argc, cargv = _argv("nxemu-tpc-run", argv)
        inp = (ctypes.c_void_p * max(1, len(ins)))(*[a.ctypes.data for a in ins])
        outp = (ctypes.c_void_p * max(1, len(outs)))(*[o.ctypes.data for o in outs])
        stats = (ctypes.c_uint64 * 3)()
        rep, err = ctypes.c_void_p(), ctypes.c_void_p()
        st = _lib.nxapi_tpc_run(argc, cargv, os.fspath(launcher or _launcher()).encode(), inp,
                                outp, stats, ctypes.byref(rep), ctypes.byref(err))
        report = _take_str(rep)
        if err.value:
            raise Error(_take_str(err), st, report)
    res = Result(outs if st == 0 else [None] * len(outs))
    res.bundles, res.cycles, res.vtime = stats[0], stats[1], stats[2]
    res.status, res.report = st, report
    if st != 0 and check:
        first = report.splitlines()[0] if report else f"exit status {st}"
        raise Error(first.removeprefix("nxemu: ").removeprefix("nxemu-tpc-run: "), st, report)
    return res
