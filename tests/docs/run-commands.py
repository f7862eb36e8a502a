#!/usr/bin/env python3
"""Every shell command README.rst and docs/ show runs as written.

A page marks a block of shell commands with an reStructuredText comment on
the line before the block's introduction (the paragraph ending in ``::`` or
the ``.. code-block::`` line), which readers and renderers do not see::

    .. runs: [status=N] [stdout=REGEX] [stderr=REGEX] [needs=sdl,gdb,vendor]

    Text that introduces the block::

       build/nxemu -kernel examples/prog.elf

The block runs with ``sh -e`` (so every command but the last must succeed),
in a scratch directory where every top-level entry of the source tree is
visible and ``build`` is the build directory; ``build/``, ``build/tools``
are on PATH, so the installed names (``nxemu-as``) work too.  The blocks of
one page run in order in one directory, so a later block may use the files
an earlier one wrote.  The last command's exit status must be ``status``
(default 0); ``stdout``/``stderr`` are Python regular expressions searched
(multi-line) in the block's output, and may be given more than once.  ``needs=`` skips the block, saying so,
when the host lacks the thing (``sdl``: the SDL display module, run with SDL's offscreen driver; ``gdb``:
gdb-multiarch; ``vendor``: ../shared/vendor beside the tree).

``.. runs: no -- REASON`` marks a block that is shown but not run (a YAML
file, a command line with placeholders, a gdb session).  On the pages listed
in STRICT every literal block that starts with a command must carry one of
the two marks, so a new example cannot slip in untested; other pages (and
pages added later) run the blocks they mark.

usage: run-commands.py SRCROOT BUILDDIR [PAGE...]
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

STRICT = ['README.rst', 'docs/user-manual.rst', 'docs/nxemu-test.rst',
          'docs/tpc-run.rst', 'docs/tracing.rst', 'docs/machine.rst', 'docs/viewer.rst',
          'docs/fit.rst', 'docs/fuzzing.rst', 'docs/timing.rst', 'docs/architecture.rst',
          'docs/adding-an-instruction.rst', 'docs/seq-isa.rst', 'docs/tpc-isa.rst',
          'docs/vendor-names.rst']
COMMANDS = re.compile(r'^(build/[\w/.-]+|nxemu[\w-]*|gdb-multiarch|make|dtc|python3|echo|cp|'
                      r'cat|sh|\./configure|timeout|man)(\s|$)')
TIMEOUT = 120

root = os.path.abspath(sys.argv[1])
build = os.path.abspath(sys.argv[2])
pages = sys.argv[3:] or (
    ['README.rst'] + sorted(os.path.relpath(p, root) for p in
                            glob.glob(os.path.join(root, 'docs', '**', '*.rst'),
                                      recursive=True)))


def blocks(path):
    """(line, mark-or-None, [command lines]) for each literal block."""
    lines = open(os.path.join(root, path), encoding='utf-8').read().split('\n')
    out = []
    mark = None
    mark_line = 0
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r'^\s*\.\. runs:(.*)$', ln)
        if m:
            mark, mark_line = m.group(1).strip(), i + 1
            i += 1
            continue
        intro = (ln.rstrip().endswith('::') and not ln.strip().startswith('..')) or \
            re.match(r'^\s*\.\. code-block::\s*(sh|shell|console|bash)?\s*$', ln)
        if not intro:
            i += 1
            continue
        indent = len(ln) - len(ln.lstrip())
        j = i + 1
        while j < len(lines) and (lines[j].strip() == '' or
                                  lines[j].lstrip().startswith(':')):
            j += 1
        body = []
        start = j
        while j < len(lines) and (lines[j].strip() == '' or
                                  len(lines[j]) - len(lines[j].lstrip()) > indent):
            body.append(lines[j])
            j += 1
        while body and not body[-1].strip():
            body.pop()
        if body:
            pad = min(len(b) - len(b.lstrip()) for b in body if b.strip())
            body = [b[pad:] for b in body]
            # a mark belongs to the next block only if nothing else came between
            use = mark if mark is not None and i + 1 - mark_line <= 8 else None
            out.append((start + 1, use, body))
        mark = None
        i = j
    return out


def have(need):
    if need == 'gdb':
        return shutil.which('gdb-multiarch') is not None
    if need == 'vendor':
        return os.path.isdir(os.path.join(root, '..', 'shared', 'vendor'))
    if need == 'sdl':       # the display module was built (SDL2 present)
        return bool(glob.glob(os.path.join(build, 'hw', 'display', '*sdl*')))
    return False


def scratch():
    d = tempfile.mkdtemp(prefix='nxemu-doccmd-')
    for e in os.listdir(root):
        if e.startswith('.') or e.startswith('build'):
            continue
        os.symlink(os.path.join(root, e), os.path.join(d, e))
    os.symlink(build, os.path.join(d, 'build'))
    return d


env = dict(os.environ)
env['PATH'] = os.pathsep.join([build, os.path.join(build, 'tools'), env.get('PATH', '')])
env['SDL_VIDEODRIVER'] = 'offscreen'   # a window needs no display server

ran = bad = skipped = 0
for page in pages:
    strict = page in STRICT
    work = None
    for line, mark, body in blocks(page):
        first = next((b for b in body if b.strip() and not b.startswith('#')), '')
        where = '%s:%d' % (page, line)
        words = first.split()
        if (len(words) > 1 and words[0].startswith('nxemu') and
                not re.match(r'[-./]|\w+[./]', words[1])):
            words = []          # output such as "nxemu-as version 0.1.0"
        if mark is None:
            if strict and words and COMMANDS.match(first):
                print('%s: a command block without a ".. runs:" mark' % where)
                bad += 1
            continue
        if mark.startswith('no'):
            continue
        try:
            opts = {}
            for t in shlex.split(mark):
                k, v = t.split('=', 1)
                opts.setdefault(k, []).append(v)
        except ValueError:
            print('%s: malformed mark %r' % (where, mark))
            bad += 1
            continue
        needs = [n for v in opts.get('needs', []) for n in v.split(',') if n]
        missing = [n for n in needs if not have(n)]
        if missing:
            print('%s: SKIP (needs %s)' % (where, ','.join(missing)))
            skipped += 1
            continue
        if work is None:
            work = scratch()
        script = '\n'.join(body) + '\n'
        try:
            r = subprocess.run(['sh', '-e', '-c', script], cwd=work, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=TIMEOUT)
            status, out, err = r.returncode, r.stdout.decode(errors='replace'), \
                r.stderr.decode(errors='replace')
        except subprocess.TimeoutExpired:
            print('%s: still running after %d s:\n%s' % (where, TIMEOUT, script))
            bad += 1
            continue
        ran += 1
        want = int(opts.get('status', ['0'])[-1])
        probs = []
        if status != want:
            probs.append('exit status %d, documented %d' % (status, want))
        for key, text in (('stdout', out), ('stderr', err)):
            for pat in opts.get(key, []):
                if not re.search(pat, text, re.M):
                    probs.append('%s does not match %r' % (key, pat))
        if probs:
            bad += 1
            print('%s: %s\n--- block\n%s--- stdout\n%s--- stderr\n%s---' %
                  (where, '; '.join(probs), script, out[-3000:], err[-3000:]))
        else:
            print('%s: ok (%d)' % (where, status))
    if work:
        shutil.rmtree(work, ignore_errors=True)
print('run-commands: %d blocks ran, %d skipped, %d problems' % (ran, skipped, bad))
sys.exit(1 if bad else 0)
