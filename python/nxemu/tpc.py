"""TPC kernels on numpy arrays: nxemu.tpc.run launches one kernel on N TPCs
of a full nc2 machine through the reference launcher, as nxemu-tpc-run does
(docs/tpc-run.rst), with tensors from and to numpy arrays.

Shapes are numpy's (C order, last axis fastest); nxemu's SHAPE d0xd1x...
names dim 0 (innermost) first, so a numpy shape (5, 100) is tensor
"100x5": dim 0 has 100 elements.  The index space, like nxemu-tpc-run's
--index-space, is dim 0 first.

The launcher is the one that belongs to the library (its build tree's
pc-bios/launcher.elf, or the installed share/nxemu/launcher.elf);
$NXEMU_TPC_LAUNCHER or launcher= override it.
"""
import ctypes
import os
import tempfile

from . import DEFAULT_CYCLE_LIMIT, Error, _argv, _lib, _take_str

__all__ = ["run", "assemble", "DTYPES", "CheckWarning", "RaceWarning", "AssemblerWarning"]

# nxemu dtype -> numpy dtype name (bf16 travels as its uint16 bit patterns).
DTYPES = {"f32": "float32", "bf16": "uint16", "i32": "int32", "u32": "uint32",
          "i16": "int16", "u16": "uint16", "i8": "int8", "u8": "uint8"}


def assemble(text, name="<text>"):
    """TPC assembly source -> ELF object bytes (nxemu-as -t tpc).  An error
    raises nxemu.Error with the assembler's file:line:col lines; its
    warnings (a LOOP whose delay slot is not a nop...) are raised as
    nxemu.tpc.AssemblerWarning."""
    out = ctypes.c_void_p()
    n = ctypes.c_size_t()
    err = ctypes.c_void_p()
    if _lib.nxapi_tpc_assemble(name.encode(), text.encode(), ctypes.byref(out), ctypes.byref(n),
                               ctypes.byref(err)) != 0:
        raise Error(_take_str(err), 1)
    data = ctypes.string_at(out.value, n.value)
    _lib.nxapi_free_str(out)
    if err.value:
        import warnings
        for line in _take_str(err).splitlines():
            warnings.warn(line.removeprefix("nxemu: warning: "), AssemblerWarning, stacklevel=2)
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
    # the launcher that belongs to the loaded library (build or install tree)
    p = ctypes.c_void_p(_lib.nxapi_launcher_path())
    path = _take_str(p)
    if path:
        return path
    raise Error(f"launcher.elf not found beside {_lib._nxemu_path} (pc-bios/launcher.elf of "
                "a build tree, share/nxemu/launcher.elf installed); give launcher=PATH")


class Result(list):
    """The output arrays (a list), with the run's figures: bundles, cycles
    (summed over the launched TPCs), stalls and hazards (the timing model's
    interlock stall cycles and early reads: timing="..."), vtime, threads
    (the TPCs' host threads), stretches and reruns (the stretches run on
    them, and those run again one TPC after another because their TPCs
    raced: docs/machine.rst "Host threads"), status,
    report (the run's diagnostic lines), warnings (the checking mode's
    lines, then the races between TPCs) and profile (with profile=: the --profile-json profile as dicts
    and lists, docs/python.rst "Profiles"; else None)."""


def _is_source(kernel):
    return isinstance(kernel, str) and "\n" in kernel


def _arg_option(v):
    """--arg/--farg for an int, a float, or a numpy scalar of either kind."""
    kind = getattr(getattr(v, "dtype", None), "kind", None)
    if isinstance(v, bool) or kind == "b":
        return "--arg", str(int(v))
    if isinstance(v, float) or kind == "f":
        return "--farg", repr(float(v))
    if isinstance(v, int) or kind in ("i", "u"):
        return "--arg", str(int(v))
    raise Error(f"args: {v!r}: not an int or a float (32-bit kernel arguments)")


def run(kernel, inputs=(), outputs=(), index_space=(1,), tpcs=1, index_base=None, args=(),
        fargs=None, machine=None, kernel_config=None, sem=None, cycle_limit=DEFAULT_CYCLE_LIMIT,
        launcher=None, check=True, check_fatal=False, timing=None, profile=None,
        raise_errors=True, descriptors=None, threads=None, race=None):
    """Launch `kernel` on TPCs 0..tpcs-1.

    kernel: ELF bytes (nxemu.tpc.assemble), TPC source text (a str with a
        newline: assembled here), or a path to an object file;
    inputs: numpy arrays (any layout is copied), or (array, "bf16") for bf16
        bit patterns in uint16 arrays;
    outputs: (shape, dtype) pairs, dtype a numpy dtype or an nxemu name;
    tensors are descriptors 0..T-1, inputs first;
    index_space / index_base: dim 0 first, as --index-space/--index-base;
    args: kernel arguments S0, S1...: ints (32-bit), floats as f32, numpy
        scalars of either kind; machine: -machine edits ("hbm=2G,quantum=64");
    cycle_limit: the run ends with status 123 at this virtual time
        (nxemu.DEFAULT_CYCLE_LIMIT unless given; None = no limit);
    check: the checking mode of nxemu-tpc-run --check (docs/tpc-guide.rst):
        out-of-bounds accesses, output elements no TPC wrote, each as a
        warning in Result.warnings (and a Python warning); check_fatal=True
        makes them errors;
    timing: a --tpc-timing mode ("interlocked", "exposed"); profile: True
        for Result.profile, the structured profile (docs/python.rst,
        "Profiles"), or a path: also the --profile text written there.
    descriptors: the descriptor of each tensor, inputs then outputs, as
        --descriptors (a kernel whose glue puts an input after an output);
    threads: host threads for the TPCs, as --threads (None: the host's
        cores, at most one per TPC; the results do not depend on it);
    race: "warn" (the default: races between TPCs reported, each in
        Result.warnings and as a RaceWarning), "fault" (also status 122)
        or "off", as --race;

    Returns a Result: the output arrays, with .bundles .cycles .stalls
    .hazards .vtime .warnings (.profile with profile=).  A non-zero exit status (fault, limit,
    launcher FAIL, a fatal check) raises nxemu.Error(message, status,
    report) unless raise_errors=False (then the outputs are None and the
    Result has .status and .report).  Ctrl-C raises KeyboardInterrupt.
    """
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="nxemu-tpc-") as tmp:
        if _is_source(kernel):
            kernel = assemble(kernel)
        if isinstance(kernel, (bytes, bytearray, memoryview)):
            kpath = os.path.join(tmp, "kernel.o")
            with open(kpath, "wb") as f:
                f.write(kernel)
        else:
            kpath = os.fspath(kernel)
            if not os.path.exists(kpath):
                shown = kpath if len(kpath) <= 60 else kpath[:57] + "..."
                raise Error(f"kernel {shown!r}: no such file (TPC source text must contain "
                            "a newline; ELF bytes as bytes)")
        argv = ["-k", kpath, "-n", str(tpcs),
                "--index-space", ",".join(str(int(s)) for s in index_space)]
        if index_base is not None:
            argv += ["--index-base", ",".join(str(int(b)) for b in index_base)]
        if descriptors is not None:
            argv += ["--descriptors", ",".join(str(int(d)) for d in descriptors)]
        ins, pre = [], []
        for i, a in enumerate(inputs):
            nxd = None
            if isinstance(a, tuple):
                a, nxd = a
            a = np.ascontiguousarray(a)
            nxd = _nx_dtype(np, nxd or a.dtype)
            if a.dtype.itemsize != np.dtype(DTYPES[nxd]).itemsize:
                raise Error(f"input {i}: {a.dtype} elements for a {nxd} tensor")
            if (check or check_fatal) and nxd != "bf16" and \
                    a.dtype.kind != np.dtype(DTYPES[nxd]).kind:
                # (array, "f32") with integers: their bits would be read as floats
                pre.append(f"nxemu-tpc-run: check: input {i}: {a.dtype} array given as a {nxd} "
                           f"tensor: its bits are read as {nxd}")
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
            argv += list(_arg_option(v))
        for v in fargs or ():
            argv += ["--farg", repr(float(v))]
        if machine:
            argv += ["-M", machine]
        if kernel_config is not None:
            argv += ["--kernel-config", str(kernel_config)]
        if sem is not None:
            argv += ["--sem", str(sem)]
        if cycle_limit:
            argv += ["--cycle-limit", str(cycle_limit)]
        if check or check_fatal:
            argv += ["--check=fatal" if check_fatal else "--check"]
        if timing:
            argv += ["--tpc-timing", str(timing)]
        if threads is not None:
            argv += ["--threads", str(int(threads))]
        if race is not None:
            argv += ["--race", str(race)]
        pjson = os.path.join(tmp, "profile.json")
        if profile:
            argv += ["--profile-json", pjson]
            if profile is not True:
                argv += ["--profile", os.fspath(profile)]
        argc, cargv = _argv("nxemu-tpc-run", argv)
        inp = (ctypes.c_void_p * max(1, len(ins)))(*[a.ctypes.data for a in ins])
        outp = (ctypes.c_void_p * max(1, len(outs)))(*[o.ctypes.data for o in outs])
        stats = (ctypes.c_uint64 * 8)()
        rep, err = ctypes.c_void_p(), ctypes.c_void_p()
        st = _lib.nxapi_tpc_run(argc, cargv, os.fspath(launcher or _launcher()).encode(), inp,
                                outp, stats, ctypes.byref(rep), ctypes.byref(err))
        report = _take_str(rep)
        if err.value:
            raise Error(_take_str(err), st, report)
        prof = None
        if profile and os.path.exists(pjson):
            import json
            with open(pjson) as f:
                prof = json.load(f)
    if st == 130 and "(SIGINT)" in report:
        raise KeyboardInterrupt(report.splitlines()[0].removeprefix("nxemu: "))
    res = Result(outs if st == 0 else [None] * len(outs))
    (res.bundles, res.cycles, res.vtime, res.stalls, res.hazards, res.threads, res.stretches,
     res.reruns) = tuple(stats)
    res.status, res.report = st, report
    res.profile = prof
    res.warnings = pre + [ln for ln in report.splitlines() if ": check: " in ln]
    races = [ln for ln in report.splitlines() if ln.startswith(_RACE)]
    res.warnings += races
    if pre and check_fatal and st == 0:
        raise Error(pre[0].removeprefix("nxemu-tpc-run: ") + " (check_fatal=True)", 121, report)
    if res.warnings:
        import warnings
        for w in res.warnings:
            if w.startswith(_RACE):
                warnings.warn(w.removeprefix("nxemu: warning: "), RaceWarning, stacklevel=2)
            else:
                warnings.warn(w.removeprefix("nxemu-tpc-run: "), CheckWarning, stacklevel=2)
    if st == 123 and cycle_limit == DEFAULT_CYCLE_LIMIT:
        report += (f"nxemu-tpc-run: the default cycle limit ({cycle_limit}) of nxemu.tpc.run: "
                   "does the kernel halt? (cycle_limit= to raise it, None for none)\n")
        res.report = report
    if st != 0 and raise_errors:
        lines = [ln for ln in report.splitlines() if ": check: " not in ln] or [""]
        first = lines[0] or f"exit status {st}"
        if st == 121 and check_fatal and res.warnings:
            first = res.warnings[0].removeprefix("nxemu-tpc-run: ") + " (check_fatal=True)"
        if st == 122 and races:
            first = races[0].removeprefix("nxemu: warning: ") + ' (race="fault")'
        if st == 123 and cycle_limit:
            first = (f"the kernel did not end within the cycle limit of {cycle_limit} cycles "
                     f"({first.removeprefix('nxemu: ')})")
            if cycle_limit == DEFAULT_CYCLE_LIMIT:
                first += (": the default cycle limit of nxemu.tpc.run (does the kernel halt? "
                          "cycle_limit= raises it, None removes it)")
        raise Error(first.removeprefix("nxemu: ").removeprefix("nxemu-tpc-run: "), st, report)
    return res


class AssemblerWarning(UserWarning):
    """A warning of the TPC assembler (nxemu.tpc.assemble)."""


class CheckWarning(UserWarning):
    """A finding of the checking mode (nxemu.tpc.run(check=True))."""


class RaceWarning(UserWarning):
    """A race between TPCs (nxemu.tpc.run(race="warn"), docs/tpc-run.rst)."""


_RACE = "nxemu: warning: tpc race: "
