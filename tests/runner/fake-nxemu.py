#!/usr/bin/env python3
"""A stand-in for nxemu with the same process interface (machine.md §9.2,
§9.3) for the nxemu-test runner tests: the "image" given with -kernel is a
text script, so every exit status and diagnostic can be produced on demand
without the sequencer target.

Script lines (one directive each):
  out TEXT       a console line on stdout
  err TEXT       a line on stderr
  sleep SECONDS  wall-clock delay (a hung emulator)
  cycles N       the run takes N virtual cycles: with -cycle-limit L <= N it
                 stops there, prints the limit line and exits 123
  raw HEX        these bytes on stdout, as they are (control bytes, bad UTF-8)
  spam MIB       MIB mebibytes of 64-byte console lines (a guest printing in a loop)
  coverage FILE  with -coverage PATH: copy FILE (relative to the script) to
                 PATH, and a one-line PATH.txt, as nxemu writes its report
  exit N         end with status N
The end of the script is a normal end (exit 0).  SIGTERM (nxemu-test's
timeout) is answered as nxemu answers it: a "terminated" line, exit 143.  Every invocation's argv is
appended to $FAKE_NXEMU_LOG when that variable is set.
"""
import os
import signal
import sys
import time


def on_term(sig, frame):
    sys.stdout.flush()
    sys.stderr.write("nxemu: terminating on signal 15 (SIGTERM): icount=0 vtime=0\n"
                     "nxemu:   core=0 pc=0x0000000001000000 state=RUNNING\n")
    sys.stderr.flush()
    os._exit(143)


def main(argv):
    signal.signal(signal.SIGTERM, on_term)
    if argv == ["-version"]:  # nxemu-test starts each emulator once before a run (not logged)
        sys.stdout.write("nxemu version 0.0.0 (fake)\n")
        return 0
    log = os.environ.get("FAKE_NXEMU_LOG")
    if log:
        with open(log, "a") as f:
            f.write(" ".join(argv) + "\n")
    kernel = None
    limit = None
    coverage = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-kernel", "-cycle-limit", "-coverage") and i + 1 < len(argv):
            if a == "-kernel":
                kernel = argv[i + 1]
            elif a == "-coverage":
                coverage = argv[i + 1]
            else:
                limit = int(argv[i + 1], 0)
            i += 2
            continue
        i += 1
    if kernel is None:
        sys.stderr.write("nxemu: no image given (-kernel or -device loader)\n")
        return 125
    try:
        with open(kernel) as f:
            script = f.read().splitlines()
    except OSError as e:
        sys.stderr.write("nxemu: %s: %s\n" % (kernel, e.strerror))
        return 125
    for line in script:
        op, _, arg = line.partition(" ")
        if op == "out":
            sys.stdout.write(arg + "\n")
            sys.stdout.flush()
        elif op == "err":
            sys.stderr.write(arg + "\n")
            sys.stderr.flush()
        elif op == "raw":
            sys.stdout.flush()
            os.write(1, bytes.fromhex(arg))
        elif op == "spam":
            line = b"x" * 63 + b"\n"
            sys.stdout.flush()
            for _ in range(int(arg) * 16):
                os.write(1, line * 1024)
        elif op == "sleep":
            time.sleep(float(arg))
        elif op == "cycles":
            if limit is not None and int(arg) >= limit:
                # quantum 64: the first round end at or after the limit
                vtime = (limit + 63) // 64 * 64
                sys.stderr.write("nxemu: limit: icount=%d vtime=%d\n" % (vtime, vtime))
                return 123
        elif op == "coverage":
            if coverage is not None:
                src = os.path.join(os.path.dirname(kernel), arg)
                with open(src, "rb") as f, open(coverage, "wb") as out:
                    out.write(f.read())
                with open(coverage + ".txt", "w") as out:
                    out.write("nxemu ISA coverage\n")
        elif op == "exit":
            return int(arg)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
