#!/usr/bin/env python3
"""Run one sequencer regression image the way a user does and check the result.

usage: run-image.py NXEMU IMAGE.elf SOURCE.s

Directives in SOURCE (comment lines, any number of each):
  ; args: OPTIONS         extra nxemu options (shell-split; @IMAGE@ = the image)
  ; exit: N               expected exit status (default 0)
  ; stderr: TEXT          this exact line must appear on stderr
  ; stderr-prefix: TEXT   some stderr line must start with TEXT
  ; stderr-contains: TEXT some stderr line must contain TEXT
  ; stdout: TEXT          stdout must equal TEXT (\\n escapes allowed)
Every image runs as given; observed (`-trace-json /dev/null`, which turns
solo slices off, nxemu/sched.h, and puts the observer hook before every
sequencer instruction, target/seq/cpu.c); and with NXEMU_SLICE_ROUNDS=1
(fast paths on, but every round a slice of its own, the reference for the
multi-round slices).  All three must agree exactly.  An image without log
options of its own runs with `-d machine` (the run's end: reason, status,
icount, vtime) and a fourth time with `-d exec` logging to a file, which
must give the same exit status, output and log lines but the exec ones.
The image is loaded with `-device loader,file=IMAGE`
unless an args line mentions @IMAGE@.
"""
import os
import shlex
import subprocess
import sys
import tempfile


def main():
    nxemu, image, source = sys.argv[1:4]
    args, lines, prefixes, parts = [], [], [], []
    want_exit, want_stdout = 0, None
    with open(source, encoding="utf-8") as f:
        for raw in f:
            s = raw.strip()
            if not s.startswith(";"):
                continue
            s = s.lstrip(";").strip()
            key, _, val = s.partition(":")
            val = val.strip()
            if key == "args":
                args += [a.replace("@IMAGE@", image) for a in shlex.split(val)]
            elif key == "exit":
                want_exit = int(val, 0)
            elif key == "stderr":
                lines.append(val)
            elif key == "stderr-prefix":
                prefixes.append(val)
            elif key == "stderr-contains":
                parts.append(val)
            elif key == "stdout":
                want_stdout = val.encode().decode("unicode_escape")
    if not any(image in a for a in args):
        args += ["-device", "loader,file=" + image]
    # Without log options of its own, an image runs with -d machine, which
    # observes nothing but prints the run's end (reason, status, icount,
    # vtime), so that the runs below compare those too.
    own_log = any(a in ("-d", "-D") for a in args)
    cmd = [nxemu] + args + ([] if own_log else ["-d", "machine"])
    p = subprocess.run(cmd, capture_output=True, timeout=60)
    # Determinism: a second run gives identical results, also when observed
    # (observers must not change what a program does).
    p2 = subprocess.run(cmd + ["-trace-json", "/dev/null"], capture_output=True, timeout=60)
    # Multi-round slices give the result of running every round.
    p3 = subprocess.run(cmd, capture_output=True, timeout=60,
                        env=dict(os.environ, NXEMU_SLICE_ROUNDS="1"))
    err = p.stderr.decode(errors="replace")
    out = p.stdout.decode(errors="replace")
    errlines = err.splitlines()
    problems = []
    if (p2.returncode, p2.stdout, p2.stderr) != (p.returncode, p.stdout, p.stderr):
        problems.append("the observed run (-trace-json) gave a different exit status or output: "
                        f"{p2.returncode} {p2.stdout!r} {p2.stderr!r}")
    if (p3.returncode, p3.stdout, p3.stderr) != (p.returncode, p.stdout, p.stderr):
        problems.append("the run with one-round slices (NXEMU_SLICE_ROUNDS=1) gave a different "
                        f"exit status or output: {p3.returncode} {p3.stdout!r} {p3.stderr!r}")
    if not own_log:
        # Observed by -d exec (one log line per instruction, to a file): the
        # same exit status, output and log lines but the exec ones.
        with tempfile.TemporaryDirectory() as tmp:
            logf = os.path.join(tmp, "log")
            p4 = subprocess.run([nxemu] + args + ["-d", "machine,exec", "-D", logf],
                                capture_output=True, timeout=60)
            log4 = []
            if os.path.exists(logf):  # not when nxemu stops before it runs
                with open(logf, encoding="utf-8", errors="replace") as f:
                    log4 = [ln for ln in f.read().splitlines() if not ln.startswith("exec: ")]
        lines4 = sorted(p4.stderr.decode(errors="replace").splitlines() + log4)
        if (p4.returncode, p4.stdout) != (p.returncode, p.stdout) or lines4 != sorted(errlines):
            problems.append("the run observed by -d exec gave a different exit status, output "
                            f"or end: {p4.returncode} {p4.stdout!r} {lines4!r}")
    if p.returncode != want_exit:
        problems.append(f"exit status {p.returncode}, expected {want_exit}")
    for ln in lines:
        if ln not in errlines:
            problems.append(f"missing stderr line: {ln}")
    for pre in prefixes:
        if not any(e.startswith(pre) for e in errlines):
            problems.append(f"no stderr line starts with: {pre}")
    for part in parts:
        if not any(part in e for e in errlines):
            problems.append(f"no stderr line contains: {part}")
    if want_stdout is not None and out != want_stdout:
        problems.append(f"stdout {out!r}, expected {want_stdout!r}")
    if problems:
        print("command:", " ".join(shlex.quote(c) for c in cmd))
        for pr in problems:
            print("FAIL:", pr)
        print("--- stderr ---")
        print(err, end="")
        print("--- stdout ---")
        print(out, end="")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
