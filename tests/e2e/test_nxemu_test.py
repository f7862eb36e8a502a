#!/usr/bin/env python3
"""End-to-end tests of nxemu-test, the regression-suite runner
(docs/nxemu-test.rst), run the way CI runs it.

Usage:
  test_nxemu_test.py NXEMU_TEST RUNNER_DIR
      runner logic against tests/runner/fake-nxemu.py (TAP output): verdicts,
      exit status, JSON, JUnit (parsed), TAP, ordering, selection, sharding,
      zero-config mode, malformed manifests, terminal progress.
  test_nxemu_test.py --real NXEMU_TEST NXEMU SEQ_IMAGE_DIR SEQ_SOURCE_DIR
      the project's own sequencer images (tests/seq) through the real nxemu,
      with a manifest generated from the directives of their sources; exit 77
      (skip) when those images are not built yet.

The fake emulator has nxemu's process interface (machine.md §9.2, §9.3);
expected verdicts and numbers below come from that contract and from the
fixture scripts in tests/runner/images, not from the runner's output.
"""
import json
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

results = []


def case(fn):
    results.append(fn)
    return fn


def run(args, cwd=None, env=None, timeout=120):
    p = subprocess.run([NXEMU_TEST, *args], capture_output=True, timeout=timeout, cwd=cwd,
                       env=env)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


# Case name -> (verdict, nxemu exit status) per the suite's manifest and fixtures.
EXPECTED = {
    "pass": ("PASS", 0),
    "fail-code": ("FAIL", 7),
    "fault-expected": ("PASS", 139),
    "fault": ("FAIL", 139),
    "deadlock": ("FAIL", 124),
    "cycle-limit": ("FAIL", 123),
    "cycle-limit-expected": ("PASS", 123),
    "hang": ("TIMEOUT", None),
    "pattern-mismatch": ("FAIL", 0),
}
ORDER = list(EXPECTED)  # manifest order


def suite_args(*extra):
    return ["--nxemu", FAKE, os.path.join(RUNNER_DIR, "suite.ini"), *extra]


class Suite:
    """One full run of the suite with every report, shared by several checks."""
    done = False

    @classmethod
    def get(cls):
        if not cls.done:
            cls.tmp = tempfile.mkdtemp(prefix="nxemu-test-")
            cls.json = os.path.join(cls.tmp, "r.json")
            cls.junit = os.path.join(cls.tmp, "r.xml")
            # -j 9: all at once, so completion order (hang last) differs from suite order
            cls.rc, cls.out, cls.err = run(suite_args("-j", "9", "--tap", "--json", cls.json,
                                                      "--junit", cls.junit))
            cls.done = True
        return cls


@case
def verdicts_and_exit_status():
    s = Suite.get()
    assert s.rc == 1, f"exit {s.rc}, expected 1 (some cases failed); stderr: {s.err}"
    rep = json.load(open(s.json))
    got = {c["name"]: (c["status"], c["exit_code"]) for c in rep["cases"]}
    assert got == EXPECTED, f"verdicts {got}"
    assert [c["name"] for c in rep["cases"]] == ORDER, "JSON not in manifest order"
    assert rep["summary"] == {**rep["summary"], "total": 9, "pass": 3, "fail": 5,
                              "timeout": 1, "error": 0}, rep["summary"]


@case
def messages_name_the_mismatch():
    rep = {c["name"]: c for c in json.load(open(Suite.get().json))["cases"]}
    assert "exit status 7" in rep["fail-code"]["message"], rep["fail-code"]["message"]
    assert "expected 0" in rep["fail-code"]["message"]
    assert "expect-stdout '^goodbye$'" in rep["pattern-mismatch"]["message"]
    # the timeout is a SIGTERM first, which nxemu answers with where it was
    assert rep["hang"]["message"] == "timeout after 8 s: stopped with SIGTERM", rep["hang"]
    assert rep["hang"]["diagnostic"].startswith(
        "nxemu: terminating on signal 15 (SIGTERM): icount=0 vtime=0\n"
        "nxemu:   core=0 pc=0x0000000001000000 state=RUNNING\n"), rep["hang"]
    assert rep["pass"]["message"] is None


@case
def json_counts_and_times():
    rep = {c["name"]: c for c in json.load(open(Suite.get().json))["cases"]}
    # pass.elf prints "nxemu: stats: instructions=42 cycles=128"
    assert (rep["pass"]["instructions"], rep["pass"]["cycles"]) == (42, 128)
    # -cycle-limit 5000, quantum 64: the run stops at the first round end >= 5000
    assert rep["cycle-limit"]["cycles"] == (5000 + 63) // 64 * 64 == 5056
    assert rep["cycle-limit-expected"]["cycles"] == 4096
    # nothing printed: null, not 0
    assert rep["fail-code"]["instructions"] is None and rep["fail-code"]["cycles"] is None
    assert rep["deadlock"]["cycles"] == 192
    assert 8.0 <= rep["hang"]["wall_time"] < 20, rep["hang"]["wall_time"]
    for c in rep.values():
        assert c["wall_time"] > 0
    assert rep["pass"]["tags"] == ["smoke", "fast"]


@case
def junit_parses_with_diagnostics():
    s = Suite.get()
    root = ET.parse(s.junit).getroot()
    assert root.tag == "testsuites"
    assert root.get("tests") == "9" and root.get("failures") == "6" and root.get("errors") == "0"
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ORDER
    by = {c.get("name"): c for c in cases}
    for name, (verdict, _) in EXPECTED.items():
        f = by[name].find("failure")
        assert (f is None) == (verdict == "PASS"), name
        if f is not None:
            assert f.get("type") == verdict, (name, f.get("type"))
            assert "reproduce: " in f.text and "-s -S" in f.text, f.text
    fault = by["fault"].find("failure").text
    assert "nxemu: fault: core=0 code=PERMISSION_FAULT(7)" in fault, fault
    assert "about to fault" in fault, "last console line missing"
    dl = by["deadlock"].find("failure").text
    assert "nxemu: deadlock: vtime=192" in dl and "state=BLOCKED wait=sem[3]" in dl, dl
    assert "nxemu: limit: icount=" in by["cycle-limit"].find("failure").text
    assert "checking result" in by["fail-code"].find("failure").text


@case
def tap_in_suite_order_with_diagnostics():
    s = Suite.get()
    lines = s.out.splitlines()
    assert "1..9" in lines, s.out
    results_ = [l for l in lines if re.match(r"(not )?ok \d+ ", l)]
    want = [("ok" if v == "PASS" else "not ok") + f" {i + 1} - {n}"
            for i, (n, (v, _)) in enumerate(EXPECTED.items())]
    assert results_ == want, results_
    i = lines.index("not ok 4 - fault")
    block = "\n".join(lines[i + 1:i + 8])
    assert "# FAIL: exit status 139" in block and "#   nxemu: fault: core=0" in block, block
    assert "# reproduce: " in block


@case
def human_output_plain_when_not_a_terminal():
    s = Suite.get()
    # with --tap the human lines go to stderr
    assert re.search(r"^PASS +pass \(", s.err, re.M), s.err
    assert re.search(r"^TIMEOUT +hang \(", s.err, re.M)
    assert "\r" not in s.err and "\033[" not in s.err, "progress codes on a non-terminal"
    assert re.search(r"^total +9 +3 +5 +1 +0 ", s.err, re.M), "summary table"
    assert "FAILED: 3 of 9 cases passed" in s.err


@case
def reproduce_command_reproduces():
    rc, out, _ = run(suite_args("--tags", "fast"))
    m = re.search(r"^FAIL +fail-code .*\n(?:    .*\n)*?    reproduce: (.*)$", out, re.M)
    assert m, out
    p = subprocess.run(m.group(1), shell=True, capture_output=True, cwd="/")
    assert p.returncode == 7, (m.group(1), p.returncode)
    assert b"checking result" in p.stdout


@case
def tags_select_and_exit_zero_when_all_pass():
    rc, out, err = run(suite_args("--tags", "smoke"))
    assert rc == 0, (rc, out, err)
    rc, out, _ = run(suite_args("--list", "--tags", "fast,slow", "--exclude-tags", "slow"))
    assert rc == 0 and out.split() == ["pass", "fail-code", "pattern-mismatch"], out


@case
def failed_from_reruns_only_failures():
    s = Suite.get()
    rc, out, err = run(suite_args("--list", "--failed-from", s.json))
    want = [n for n in ORDER if EXPECTED[n][0] != "PASS"]
    assert rc == 0 and out.split() == want, (out, err)


@case
def error_when_nxemu_cannot_start():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    js = os.path.join(tmp, "r.json")
    bad = os.path.join(tmp, "no-such-nxemu")
    rc, out, err = run(["--nxemu", bad, "--json", js, os.path.join(RUNNER_DIR, "suite.ini")])
    # fail fast (#41): one line naming the emulator, usage status, no case run, no report
    assert rc == 2, rc
    assert err.count("\n") == 1 and err.startswith(
        "nxemu-test: error: %s: cannot start the emulator: " % bad), err
    assert not os.path.exists(js)
    # an emulator that starts but fails its -version is refused the same way
    rc, out, err = run(["--nxemu", "/bin/false", "--json", js,
                        os.path.join(RUNNER_DIR, "suite.ini")])
    assert rc == 2 and "the emulator does not start" in err, (rc, err)
    shutil.rmtree(tmp)


@case
def junit_error_element():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    xml = os.path.join(tmp, "r.xml")
    # an emulator that passes the start check and is gone when the case runs:
    # the case is an ERROR (the spawn fails), reported as <error>
    gone = os.path.join(tmp, "vanishing-nxemu")
    with open(gone, "w") as f:
        f.write('#!/bin/sh\n[ "$1" = -version ] && rm -f -- "$0"\nexit 0\n')
    os.chmod(gone, 0o755)
    rc, _, _ = run(["--nxemu", gone, "--tags", "smoke", "--junit",
                    xml, os.path.join(RUNNER_DIR, "suite.ini")])
    root = ET.parse(xml).getroot()
    assert rc == 1 and root.get("errors") == "1" and root.get("failures") == "0"
    e = root.find("./testsuite/testcase/error")
    assert e is not None and e.get("type") == "ERROR" and "could not start" in e.get("message")
    shutil.rmtree(tmp)


@case
def reports_well_formed_with_binary_console():
    # console: control bytes, ESC, invalid UTF-8 and "</failure>&]]>"
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    xml, js = os.path.join(tmp, "r.xml"), os.path.join(tmp, "r.json")
    rc, out, _ = run(["--nxemu", FAKE, "--tap", "--junit", xml, "--json", js,
                      os.path.join(RUNNER_DIR, "binary.ini")])
    assert rc == 1
    text = ET.parse(xml).getroot().find(".//failure").text
    assert "</failure>&]]>" in text and "last line" in text, text
    c = json.load(open(js))["cases"][0]
    assert c["exit_code"] == 3 and "</failure>&]]>" in c["diagnostic"]
    assert "not ok 1 - binary-console" in out.splitlines()
    shutil.rmtree(tmp)


@case
def command_line_composition():
    # documented order: NXEMU [suite args] [images] [case args] [-cycle-limit N]
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    shutil.copy(os.path.join(RUNNER_DIR, "images", "pass.elf"), os.path.join(tmp, "a.elf"))
    open(os.path.join(tmp, "m.ini"), "w").write(
        "[suite]\nargs = -machine quantum=32\ncycle-limit = 900\n"
        "[case c]\nimages = a.elf 'b c.bin'\nargs = -bind 5=0x10 -d \"x y\"\n"
        "[case d]\nimages = a.elf\ncycle-limit = 7\n")
    log = os.path.join(tmp, "argv.log")
    rc, out, err = run(["--nxemu", FAKE, "-j", "1", os.path.join(tmp, "m.ini")],
                       env={**os.environ, "FAKE_NXEMU_LOG": log})
    got = open(log).read().splitlines()
    assert got == ["-machine quantum=32 -kernel a.elf -device loader,file=b c.bin -bind 5=0x10 "
                   "-d x y -cycle-limit 900",
                   "-machine quantum=32 -kernel a.elf -cycle-limit 7"], got
    shutil.rmtree(tmp)


@case
def bad_previous_report():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    rep = os.path.join(tmp, "r.json")
    manifest = os.path.join(RUNNER_DIR, "suite.ini")
    for text, want in (('{"cases": [\n  {"name": "x",\n  "status" "PASS"}]}', f"{rep}:3: error: "),
                       ('{"summary": {}}', f"{rep}: error: not an nxemu-test --json report"),
                       ('{"cases": [{"status": "FAIL"}]}', f"{rep}: error: case 1 ")):
        open(rep, "w").write(text)
        for opt in ("--failed-from", "--cost-from"):
            rc, out, err = run(["--nxemu", FAKE, opt, rep, "--shard", "1/2", manifest])
            assert rc == 2 and err.startswith(want) and out == "", (text, rc, err)
    shutil.rmtree(tmp)


@case
def huge_console_output_is_bounded():
    # 20 MiB of console: the runner keeps the first 4 MiB and the last 64 KiB
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    open(os.path.join(tmp, "spam.elf"), "w").write("out first line\nspam 20\nout the end\nexit 5\n")
    open(os.path.join(tmp, "m.ini"), "w").write(
        "[case spam]\nimages = spam.elf\nexpect-stdout = ^first line$\n")
    js = os.path.join(tmp, "r.json")
    rc, out, _ = run(["--nxemu", FAKE, "--json", js, os.path.join(tmp, "m.ini")])
    c = json.load(open(js))["cases"][0]
    assert rc == 1 and c["exit_code"] == 5, c["message"]
    kept = 20 * 2**20 + len("first line\nthe end\n")
    dropped = kept - 4 * 2**20 - 2**16
    assert f"nxemu-test: stdout: {dropped} bytes beyond the first 4 MiB not kept" in \
        c["diagnostic"], c["diagnostic"][:300]
    assert c["diagnostic"].rstrip().endswith("the end"), c["diagnostic"][-200:]
    shutil.rmtree(tmp)


def many_cases(n):
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    path = os.path.join(tmp, "many.ini")
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"[case t{i:03d}-{(i * 7919) % 1000}]\nimages = x.elf\n\n")
    return tmp, path


@case
def shards_partition_balanced():
    tmp, path = many_cases(53)
    rc, out, _ = run(["--nxemu", FAKE, "--list", path])
    everything = out.split()
    assert rc == 0 and len(everything) == 53
    for n in (1, 2, 3, 4, 7, 53, 60):
        parts = []
        for i in range(1, n + 1):
            rc, out, err = run(["--nxemu", FAKE, "--list", "--shard", f"{i}/{n}", path])
            assert rc == 0, err
            parts.append(out.split())
            # cases keep suite order inside a shard
            assert parts[-1] == [x for x in everything if x in parts[-1]]
        flat = [x for p in parts for x in p]
        assert sorted(flat) == sorted(everything), f"not a partition for N={n}"
        sizes = [len(p) for p in parts]
        assert max(sizes) - min(sizes) <= 1, f"unbalanced for N={n}: {sizes}"
        again = run(["--nxemu", FAKE, "--list", "--shard", f"1/{n}", path])[1].split()
        assert again == parts[0], "shard selection not deterministic"
    # not merely contiguous slices of the manifest
    first = run(["--nxemu", FAKE, "--list", "--shard", "1/2", path])[1].split()
    assert first != everything[:len(first)]
    shutil.rmtree(tmp)


@case
def shards_by_recorded_cost():
    tmp, path = many_cases(12)
    names = run(["--nxemu", FAKE, "--list", path])[1].split()
    costs = {n: float(1 + (i * 5) % 9) for i, n in enumerate(names)}
    del costs[names[3]]  # unknown cost: the mean of the known ones
    rep = os.path.join(tmp, "cost.json")
    json.dump({"cases": [{"name": n, "status": "PASS", "wall_time": c} for n, c in costs.items()]},
              open(rep, "w"))
    # greedy longest-processing-time, computed independently
    mean = sum(costs.values()) / len(costs)
    full = {n: costs.get(n, mean) for n in names}
    load, num, want = [0.0] * 3, [0] * 3, [[], [], []]
    for n in sorted(names, key=lambda n: (-full[n], n)):
        b = min(range(3), key=lambda s: (load[s], num[s], s))
        load[b] += full[n]
        num[b] += 1
        want[b].append(n)
    for i in range(3):
        rc, out, err = run(["--nxemu", FAKE, "--list", "--shard", f"{i + 1}/3", "--cost-from", rep,
                            path])
        assert rc == 0, err
        assert sorted(out.split()) == sorted(want[i]), (i, out.split(), want[i])
    shutil.rmtree(tmp)


@case
def bad_options():
    for args, text in ((["--shard", "0/3"], "--shard 0/3"), (["--shard", "4/3"], "--shard 4/3"),
                       (["--shard", "x"], "--shard x"), ([], "no manifest")):
        rc, out, err = run(["--nxemu", FAKE, *args] + ([os.path.join(RUNNER_DIR, "suite.ini")]
                                                       if args else []))
        assert rc == 2 and text in err, (args, rc, err)


MALFORMED = [
    # (manifest text, line, message fragment)
    ("[case a]\nimages = a.elf\nimage = b.elf\n", 3, "unknown key 'image'"),
    ("# c\n[case a]\nimages = a.elf\n\n[case a]\nargs = -x\n", 5, "duplicate group [case a]"),
    ("[case a]\nimages = a.elf\nexpect-exit = 256\n", 3, "expect-exit"),
    ("[case a]\nimages = a.elf\nexpect-stdout = (unclosed\n", 3, "bad pattern"),
    ("images = a.elf\n[case a]\n", 1, "key outside a group"),
    ("[case a]\nimages = a.elf\n[case b]\n\ntags = x\n", 3, "neither images nor args"),
    ("[case a]\nargs = -kernel 'a.elf\n", 2, "args:"),
    ("[suite]\ntimeout = soon\n[case a]\nimages = a.elf\n", 2, "timeout"),
    ("[case a]\nimages = a.elf\n[cases b]\n", 3, "unknown group [cases b]"),
    ("[case a]\nimages = a.elf\n[case b\n", 3, "malformed group header"),
    ("[case a]\nimages = a.elf\njust words\n", 3, "not a key = value pair"),
    ("[case a]\nimages = a.elf\nimages = b.elf\n", 3, "duplicate key 'images'"),
    ("[case a]\nimages = a.elf\ncycle-limit = -5\n", 3, "cycle-limit"),
    ("# nothing\n", 1, "no [case NAME] groups"),
]


@case
def malformed_manifests_line_accurate():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    for i, (text, line, frag) in enumerate(MALFORMED):
        path = os.path.join(tmp, f"bad{i}.ini")
        open(path, "w").write(text)
        rc, out, err = run(["--nxemu", FAKE, path])
        first = err.splitlines()[0] if err else ""
        assert rc == 2, (text, rc, err)
        assert first.startswith(f"{path}:{line}: error: ") and frag in first, (text, first)
        assert len(err.splitlines()) == 1, err
    # the same case name in two manifests
    a, b = os.path.join(tmp, "a.ini"), os.path.join(tmp, "b.ini")
    open(a, "w").write("[case x]\nimages = a.elf\n")
    open(b, "w").write("\n\n[case x]\nimages = b.elf\n")
    rc, _, err = run(["--nxemu", FAKE, a, b])
    assert rc == 2 and err.startswith(f"{b}:3: error: duplicate case name 'x'"), err
    shutil.rmtree(tmp)


@case
def zero_config_directory():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    imgs = os.path.join(RUNNER_DIR, "images")
    shutil.copy(os.path.join(imgs, "pass.elf"), os.path.join(tmp, "b.elf"))
    shutil.copy(os.path.join(imgs, "pass.elf"), os.path.join(tmp, "a.fit"))
    open(os.path.join(tmp, "notes.txt"), "w").write("exit 3\n")
    rc, out, _ = run(["--nxemu", FAKE, "--list", tmp])
    assert rc == 0 and out.split() == ["a.fit", "b.elf"], out
    log = os.path.join(tmp, "argv.log")
    rc, out, err = run(["--nxemu", FAKE, tmp], env={**os.environ, "FAKE_NXEMU_LOG": log})
    assert rc == 0, (out, err)
    assert sorted(open(log).read().split("\n")[:-1]) == ["-kernel a.fit", "-kernel b.elf"]
    shutil.copy(os.path.join(imgs, "fail.elf"), os.path.join(tmp, "c.elf"))
    rc, out, err = run(["--nxemu", FAKE, tmp])
    assert rc == 1 and re.search(r"^FAIL +c\.elf ", out, re.M), out
    shutil.rmtree(tmp)


# tests/runner/coverage/coverage.ini merged by hand from the canned reports a.json (cases a and
# a-fault), b.json (case b); case none writes no report, case bad an inconsistent one.
COVERAGE_MERGED = {
    "format": "nxemu-coverage-1",
    "cases": 3,
    "isas": {
        "seq": {"instructions": 10 + 5 + 10, "categories": {
            "opcodes": {"covered": 3, "total": 4,
                        "hits": {"halt": 4, "mov": 7 + 1 + 7, "nop": 3 + 3},
                        "missing": ["b"], "other": {}},
            "faults": {"covered": 1, "total": 2, "hits": {"B": 1}, "missing": ["A"],
                       "other": {"weird": 2}},
            "branch_conds": {"covered": 1, "total": 2, "hits": {"always": 5},
                             "missing": ["eq"], "other": {}}}},
        "tpc": {"bundles": 3, "categories": {
            "opcodes": {"covered": 1, "total": 3, "hits": {"spu.add": 3},
                        "missing": ["ld.ld_g", "vpu.mac"], "other": {}}}}},
    "cases_without_coverage": ["none", "bad"],
    "notes": ["none: no coverage file (FAIL, nxemu exit 125: usage, configuration or load error)",
              "bad: coverage file ignored: seq.opcodes: covered 3 / total 4 disagree with 1 hits "
              "and 3 missing names"],
}


def coverage_run(*extra, env=None):
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    out_json = os.path.join(tmp, "cov.json")
    rc, out, err = run(["--nxemu", FAKE, *extra, "--coverage", out_json,
                        os.path.join(RUNNER_DIR, "coverage", "coverage.ini")], env=env)
    return tmp, out_json, rc, out, err


@case
def coverage_merges_case_reports():
    log_dir = tempfile.mkdtemp(prefix="nxemu-test-")
    log = os.path.join(log_dir, "argv.log")
    tmp, cj, rc, out, err = coverage_run("-j", "5", env={**os.environ, "FAKE_NXEMU_LOG": log})
    assert rc == 1 and re.search(r"^FAIL +none ", out, re.M), (out, err)
    merged = json.load(open(cj))
    assert merged == COVERAGE_MERGED, merged
    # each case got its own -coverage file, all of them gone afterwards
    paths = [line.split()[-1] for line in open(log).read().splitlines()]
    assert all(" -coverage " in line for line in open(log)), open(log).read()
    assert len(set(paths)) == 5 and not any(os.path.exists(p) or os.path.exists(p + ".txt")
                                            for p in paths), paths
    assert not os.path.exists(os.path.dirname(paths[0])), paths
    # the reproduce command is the case's own, without the runner's -coverage
    assert "reproduce:" in out and "-coverage" not in out, out
    assert "warning: case bad: coverage file ignored: seq.opcodes" in err, err
    txt = open(cj + ".txt").read().splitlines()
    assert txt[0] == "nxemu ISA coverage, merged from 3 of 5 cases", txt
    for line in ["seq: 25 instructions",
                 "  opcodes            3 of 4    ( 75.0%)  missing: b",
                 "  faults             1 of 2    ( 50.0%)  missing: A  other: weird",
                 "tpc: 3 bundles",
                 "  opcodes            1 of 3    ( 33.3%)  missing: ld.ld_g vpu.mac",
                 "no coverage from 2 cases:"]:
        assert line in txt, (line, txt)
    assert any(t.startswith("  none: no coverage file (FAIL, nxemu exit 125") for t in txt), txt
    assert any(t.startswith("  bad: coverage file ignored: ") for t in txt), txt
    # deterministic: another -j gives the same bytes
    tmp2, cj2, rc2, _, _ = coverage_run("-j", "1")
    assert rc2 == 1 and open(cj, "rb").read() == open(cj2, "rb").read()
    assert open(cj + ".txt", "rb").read() == open(cj2 + ".txt", "rb").read()
    for d in (tmp, tmp2, log_dir):
        shutil.rmtree(d)


@case
def coverage_selection_and_errors():
    # only the selected cases count; without --coverage nxemu gets no -coverage
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    log = os.path.join(tmp, "argv.log")
    rc, out, err = run(["--nxemu", FAKE, os.path.join(RUNNER_DIR, "coverage", "coverage.ini")],
                       env={**os.environ, "FAKE_NXEMU_LOG": log})
    assert rc == 1 and "-coverage" not in open(log).read(), open(log).read()
    t2, cj, rc, out, err = coverage_run("--shard", "1/1", "--failed-from", "/nonexistent.json")
    assert rc == 2 and not os.path.exists(cj), err
    shutil.rmtree(t2)
    m = os.path.join(tmp, "one.ini")
    cov = os.path.join(RUNNER_DIR, "coverage")
    open(m, "w").write(f"[case b]\nimages = {cov}/cov-b.elf\n")
    cj = os.path.join(tmp, "c.json")
    rc, out, err = run(["--nxemu", FAKE, "--coverage", cj, m])
    b = json.load(open(os.path.join(cov, "b.json")))
    got = json.load(open(cj))
    assert rc == 0 and got["cases"] == 1 and got["cases_without_coverage"] == [], got
    for isa in b["isas"].values():  # one report merges to itself, names sorted
        for cat in isa["categories"].values():
            cat["missing"].sort()
    assert got["isas"] == b["isas"], got
    # an unwritable coverage file is a usage error naming it
    bad = os.path.join(tmp, "no", "such", "c.json")
    rc, out, err = run(["--nxemu", FAKE, "--coverage", bad, m])
    assert rc == 2 and bad in err, err
    shutil.rmtree(tmp)


@case
def progress_line_on_a_terminal():
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(NXEMU_TEST, [NXEMU_TEST, *suite_args("--tags", "smoke,fast")])
    buf = b""
    while True:
        r, _, _ = select.select([fd], [], [], 60)
        if not r:
            break
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        buf += data
    _, status = os.waitpid(pid, 0)
    text = buf.decode(errors="replace")
    assert os.WEXITSTATUS(status) == 1, text
    assert re.search(r"\r\033\[K\[\d+/3\] ", text), text
    # passing cases are not listed on a terminal, failures are
    assert "PASS    pass" not in text and "FAIL    fail-code" in text, text


def main_runner():
    n = 0
    print(f"1..{len(results)}")
    failed = 0
    for fn in results:
        n += 1
        try:
            fn()
            print(f"ok {n} - {fn.__name__}")
        except Exception as e:  # report every failure, keep going
            failed += 1
            print(f"not ok {n} - {fn.__name__}")
            for line in repr(e).splitlines():
                print("# " + line)
    if Suite.done:
        shutil.rmtree(Suite.tmp)
    return 1 if failed else 0


def pattern(text, whole=False, start=True, end=True):
    """A GLib (PCRE) regex matching TEXT literally, on one manifest line."""
    esc = {"\n": "\\n", "\t": "\\t", "\r": "\\r", " ": "\\x20"}
    r = "".join(esc.get(ch) or ("\\" + ch if ch.isascii() and not ch.isalnum() and ch != "_"
                                else ch) for ch in text)
    if whole:
        return "\\A" + r + "\\z"
    return ("^" if start else "") + r + ("$" if end else "")


def seq_case(image, src):
    """nxemu arguments, expected exit status and patterns of one tests/seq
    image from the directives of its source (tests/seq/run-image.py documents them)."""
    args, pats = [], []
    want_exit = 0
    for raw in open(src, encoding="utf-8"):
        t = raw.strip()
        if not t.startswith(";"):
            continue
        key, _, val = t.lstrip(";").strip().partition(":")
        val = val.strip()
        if key == "args":
            args += [a.replace("@IMAGE@", image) for a in shlex.split(val)]
        elif key == "exit":
            want_exit = int(val, 0)
        elif key == "stderr":
            pats.append(("stderr", pattern(val)))
        elif key == "stderr-prefix":
            pats.append(("stderr", pattern(val, end=False)))
        elif key == "stderr-contains":
            pats.append(("stderr", pattern(val, start=False, end=False)))
        elif key == "stdout":
            pats.append(("stdout", pattern(val.encode().decode("unicode_escape"), whole=True)))
    if not any(image in a for a in args):
        args += ["-device", "loader,file=" + image]
    return args, want_exit, pats


def seq_manifest(image_dir, source_dir, out, only=None):
    """A manifest for the built tests/seq images (those named in ONLY, when
    given); returns the case count."""
    n = 0
    with open(out, "w") as m:
        m.write("# generated from tests/seq/*.s by test_nxemu_test.py\n")
        for elf in sorted(os.listdir(image_dir)):
            src = os.path.join(source_dir, elf[:-4] + ".s")
            if not elf.endswith(".elf") or not os.path.exists(src) or (only and elf not in only):
                continue
            image = os.path.join(os.path.abspath(image_dir), elf)
            args, want_exit, pats = seq_case(image, src)
            m.write(f"\n[case seq-{elf[:-4]}]\nargs = {shlex.join(args)}\n"
                    f"expect-exit = {want_exit}\ntimeout = 60\n")
            for stream, pat in pats:
                m.write(f"expect-{stream} = {pat}\n")
            n += 1
    return n


# Images whose coverage reports are merged in the real test: two passing ones and a fault.
COVERAGE_IMAGES = ["alu.elf", "branch.elf", "fault-invalid-opcode.elf"]


def merge_coverage(reports):
    """The suite's coverage from per-case nxemu -coverage reports, as
    docs/nxemu-test.rst defines it: hits summed per ISA, category and name;
    a name is part of the ISA when some report lists it in hits or missing."""
    isas = {}
    for r in reports:
        for iname, isa in r["isas"].items():
            m = isas.setdefault(iname, {"counters": {}, "cats": {}})
            for k, v in isa.items():
                if k != "categories":
                    m["counters"][k] = m["counters"].get(k, 0) + v
            for cname, c in isa["categories"].items():
                mc = m["cats"].setdefault(cname, {"count": {}, "known": set()})
                mc["known"] |= set(c["hits"]) | set(c["missing"])
                for n, v in list(c["hits"].items()) + list(c["other"].items()):
                    mc["count"][n] = mc["count"].get(n, 0) + v
    out = {}
    for iname, m in isas.items():
        cats = {}
        for cname, mc in m["cats"].items():
            hits = {n: v for n, v in mc["count"].items() if n in mc["known"] and v}
            cats[cname] = {"covered": len(hits), "total": len(mc["known"]), "hits": hits,
                           "missing": sorted(mc["known"] - set(hits)),
                           "other": {n: v for n, v in mc["count"].items()
                                     if n not in mc["known"]}}
        out[iname] = {**m["counters"], "categories": cats}
    return out


def real_coverage(nxemu, image_dir, source_dir, tmp):
    """nxemu-test --coverage over a few real images against the sum of their
    own nxemu -coverage reports; returns a list of problems."""
    only = [e for e in COVERAGE_IMAGES if os.path.exists(os.path.join(image_dir, e))]
    if len(only) < 2:
        return [f"coverage: fewer than 2 of {COVERAGE_IMAGES} built"]
    manifest = os.path.join(tmp, "cov.ini")
    n = seq_manifest(image_dir, source_dir, manifest, only=set(only))
    reports = []
    for elf in only:
        image = os.path.join(os.path.abspath(image_dir), elf)
        args, want_exit, _ = seq_case(image, os.path.join(source_dir, elf[:-4] + ".s"))
        path = os.path.join(tmp, elf + ".cov.json")
        p = subprocess.run([nxemu, *args, "-coverage", path], capture_output=True, timeout=120)
        if p.returncode != want_exit:
            return [f"coverage: {elf}: exit {p.returncode}, expected {want_exit}"]
        reports.append(json.load(open(path)))
    cj = os.path.join(tmp, "suite-cov.json")
    rc, out, err = run(["--nxemu", nxemu, "--coverage", cj, manifest], timeout=300)
    problems = [] if rc == 0 else [f"coverage run: exit {rc}\n{out}{err}"]
    got = json.load(open(cj))
    want = merge_coverage(reports)
    if got.get("format") != "nxemu-coverage-1" or got.get("cases") != n:
        problems.append(f"coverage: format/cases {got.get('format')} {got.get('cases')}, want {n}")
    if got.get("isas") != want:
        problems.append(f"coverage: merged isas differ:\n{got.get('isas')}\nwant\n{want}")
    seq = got["isas"]["seq"]
    if seq["instructions"] != sum(r["isas"]["seq"]["instructions"] for r in reports):
        problems.append("coverage: seq instructions are not the sum of the cases'")
    for iname, isa in got["isas"].items():
        for cname, c in isa["categories"].items():
            if (c["covered"] != len(c["hits"]) or c["covered"] + len(c["missing"]) != c["total"]
                    or c["missing"] != sorted(c["missing"])):
                problems.append(f"coverage: {iname}.{cname} inconsistent: {c}")
    txt = open(cj + ".txt").read()
    if not txt.startswith(f"nxemu ISA coverage, merged from {n} of {n} cases\n"):
        problems.append("coverage: summary header: " + txt[:80])
    return problems


def main_real(nxemu, image_dir, source_dir):
    """The project's sequencer regression images through nxemu-test and the real nxemu."""
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    manifest = os.path.join(tmp, "seq.ini")
    try:
        n = seq_manifest(image_dir, source_dir, manifest) if os.path.isdir(image_dir) else 0
        if not n or not os.access(nxemu, os.X_OK):
            print(f"SKIP: no sequencer images built in {image_dir} yet (tests/seq)")
            return 77
        js = os.path.join(tmp, "seq.json")
        rc, out, err = run(["--nxemu", nxemu, "--json", js, manifest], timeout=900)
        sys.stdout.write(out + err)
        rep = json.load(open(js))
        if rep["summary"]["total"] != n:
            print(f"report has {rep['summary']['total']} cases, manifest {n}")
            return 1
        problems = real_coverage(nxemu, image_dir, source_dir, tmp)
        for p in problems:
            print(p)
        return 0 if rc == 0 and not problems else 1
    finally:
        shutil.rmtree(tmp)


def _strip_times(report):
    """A JSON report without what differs between runs: wall times, start, host."""
    for k in ("timestamp", "hostname", "coverage"):
        report.pop(k, None)
    report["summary"].pop("wall_time")
    for c in report["cases"]:
        c.pop("wall_time")
    return report


def _strip_xml_times(text):
    return re.sub(r' (time|timestamp|hostname)="[^"]*"', "", text)


@case
def merge_of_shards_equals_unsharded():
    # #41: three shard reports merged == the unsharded report, except for wall
    # times (JSON, JUnit, TAP and the merged coverage)
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    try:
        for manifest, extra in (("suite.ini", ["--exclude-tags", "slow"]),
                                (os.path.join("coverage", "coverage.ini"), [])):
            cov = ["--coverage", os.path.join(tmp, "full-cov.json")] if not extra else []
            full = os.path.join(tmp, "full.json")
            fullx = os.path.join(tmp, "full.xml")
            rc_full, _, _ = run(["--nxemu", FAKE, *extra, *cov, "--json", full, "--junit", fullx,
                                 os.path.join(RUNNER_DIR, manifest)])
            shards = []
            for i in (1, 2, 3):
                sj = os.path.join(tmp, "s%d.json" % i)
                scov = (["--coverage", os.path.join(tmp, "cov%d.json" % i)] if cov else [])
                run(["--nxemu", FAKE, *extra, *scov, "--shard", "%d/3" % i, "--json", sj,
                     os.path.join(RUNNER_DIR, manifest)])
                shards.append(sj)
            m, mx, mt = (os.path.join(tmp, n) for n in ("m.json", "m.xml", "m.tap"))
            mcov = ["--coverage", os.path.join(tmp, "m-cov.json")] if cov else []
            rc, out, err = run(["merge", "--json", m, "--junit", mx, "--tap", mt, *mcov,
                                *shards])
            assert rc == rc_full, (rc, rc_full, err)
            # the report names its coverage file, as a run's does
            assert json.load(open(m))["coverage"] == (mcov[1] if cov else None)
            a, b = _strip_times(json.load(open(full))), _strip_times(json.load(open(m)))
            assert a == b, (a, b)
            assert _strip_xml_times(open(fullx).read()) == _strip_xml_times(open(mx).read())
            tap = open(mt).read().splitlines()
            assert tap[1] == "1..%d" % len(a["cases"]), tap
            assert [t.split(" - ")[1] for t in tap if t.startswith(("ok", "not ok"))] == \
                [c["name"] for c in a["cases"]], tap
            if cov:
                for ext in ("", ".txt"):
                    assert open(os.path.join(tmp, "full-cov.json" + ext)).read() == \
                        open(os.path.join(tmp, "m-cov.json" + ext)).read(), ext
        # JUnit: every case's console, start time and host (#41)
        root = ET.parse(fullx).getroot()
        suite = root.find("./testsuite")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", suite.get("timestamp")), \
            suite.attrib
        assert suite.get("hostname"), suite.attrib
        # overlapping shards and unreadable reports are refused
        rc, _, err = run(["merge", "--json", m, shards[0], shards[0]])
        assert rc == 2 and "is in two reports" in err, (rc, err)
        rc, _, err = run(["merge", os.path.join(tmp, "nothing.json")])
        assert rc == 2 and "nothing.json: error:" in err, (rc, err)
    finally:
        shutil.rmtree(tmp)


@case
def junit_system_out_for_passing_cases():
    tmp = tempfile.mkdtemp(prefix="nxemu-test-")
    try:
        xml = os.path.join(tmp, "r.xml")
        run(["--nxemu", FAKE, "--exclude-tags", "slow", "--junit", xml,
             os.path.join(RUNNER_DIR, "suite.ini")])
        root = ET.parse(xml).getroot()
        outs = {tc.get("name"): (tc.findtext("system-out"), tc.find("failure"))
                for tc in root.iter("testcase")}
        passing = [n for n, (o, f) in outs.items() if f is None and o]
        assert passing, outs   # a passing case's console is kept
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    if sys.argv[1] == "--real":
        NXEMU_TEST = os.path.abspath(sys.argv[2])
        sys.exit(main_real(os.path.abspath(sys.argv[3]), sys.argv[4], sys.argv[5]))
    NXEMU_TEST = os.path.abspath(sys.argv[1])
    RUNNER_DIR = os.path.abspath(sys.argv[2])
    FAKE = os.path.join(RUNNER_DIR, "fake-nxemu.py")
    sys.exit(main_runner())
