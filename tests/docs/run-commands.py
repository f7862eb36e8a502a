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

Two more forms run what a reader does in two terminals or in gdb:

``background=first``
   the block's first command (with its continuation lines) runs in the
   background, as in another terminal, and the rest of the block runs once
   it has started; ``stdin=TEXT`` (``\n`` for new lines) is what the reader
   types into the last command (gdb's prompt).  The background command must
   end by itself within the timeout (a gdb session that ends the run).
   ``background=CMD`` runs CMD so, as the text says to before the block.
``gdb=COMMAND``
   the block is a gdb session: its ``(gdb) `` lines are the commands, the
   other lines what gdb and the emulator print, which must all appear in
   that order (a line ``...`` stands for any lines).  COMMAND starts the
   emulator with ``-gdb unix:PATH`` (in the background, after ``setup=SH``
   if given); gdb-multiarch connects to PATH (``target extended-remote``,
   without ``scripts/nxemu-gdb.py``: a recipe must not need it, unless the
   block shows the script's own commands and says ``script=yes``), runs
   ``before=CMD;CMD...`` (the text's "stopped at ...") and then the block's
   commands.  The status is gdb's.

``save=FILE``
   the block is not run but saved as FILE for the blocks after it (a
   program the text tells to save).

Python in the blocks imports ``nxemu`` from this tree (``PYTHONPATH``, and
``NXEMU_LIBRARY`` naming this build's library), as after docs/python.rst's
``pip install``; ``needs=numpy`` skips a block without numpy.

``.. runs: elsewhere=TEST`` marks a block a dedicated test runs as written
(it reads the page itself): TEST must be a test of a meson.build.
A page whose every block a dedicated test runs, reading the page, says so
once at its top with ``.. runs-page: elsewhere=TEST``.
``.. runs: no -- REASON`` marks a block that is shown but not run (a YAML
file, a command line with placeholders, sample output whose numbers depend
on the host).  Every literal block of README.rst and docs/ that starts with
a command (``$ `` prompts and ``(gdb) `` lines included) must carry one of
these marks, so a new example cannot slip in untested.

usage: run-commands.py SRCROOT BUILDDIR [PAGE...]
"""
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

COMMANDS = re.compile(r'^(\$ |\(gdb\) |[A-Z]+=\$\(|'
                      r'(build/[\w/.-]+|build-fuzz/[\w/.-]+|nxemu[\w-]*|gdb-multiarch|'
                      r'tpc-clang|make|dtc|python3|echo|cp|mkdir|printf|cat|sh|\./configure|'
                      r'timeout|man)(\s|$))')
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
    if need == 'numpy':
        return subprocess.run(['python3', '-c', 'import numpy'], capture_output=True,
                              env=env).returncode == 0
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
# python3 is one with numpy when the host has one (the one on PATH, else
# Debian's /usr/bin/python3), as the python tests choose theirs
shim = None
for py in (shutil.which('python3'), '/usr/bin/python3'):
    if py and subprocess.run([py, '-c', 'import numpy'], capture_output=True).returncode == 0:
        if py != shutil.which('python3'):
            shim = tempfile.mkdtemp(prefix='nxemu-doccmd-py-')
            os.symlink(py, os.path.join(shim, 'python3'))
            env['PATH'] = shim + os.pathsep + env['PATH']
        break
# a sanitizer build's library needs the sanitizer runtimes loaded first into
# the (uninstrumented) interpreter: the python3 the blocks run preloads them
# (NXEMU_PY_PRELOAD, set by the build), and nothing else does
preload = os.environ.get('NXEMU_PY_PRELOAD', '')
if preload:
    real = shutil.which('python3', path=env['PATH'])
    wrap = tempfile.mkdtemp(prefix='nxemu-doccmd-preload-')
    with open(os.path.join(wrap, 'python3'), 'w') as f:
        f.write('#!/bin/sh\nLD_PRELOAD="%s" ASAN_OPTIONS=detect_leaks=0 exec "%s" "$@"\n'
                % (preload, real))
    os.chmod(os.path.join(wrap, 'python3'), 0o755)
    env['PATH'] = wrap + os.pathsep + env['PATH']
env['PYTHONPATH'] = os.path.join(root, 'python')    # as if pip-installed
env['NXEMU_LIBRARY'] = os.path.join(build, 'python', 'libnxemu.so')

def meson_tests():
    names = set()
    for f in glob.glob(os.path.join(root, '**', 'meson.build'), recursive=True):
        names.update(re.findall(r"\btest\('([\w.+-]+)'", open(f, encoding='utf-8').read()))
    return names


def listening(port):
    """A TCP socket listens on port (read from /proc: connecting would be a
    gdb connection, and its end a detach that lets a -S run go)."""
    for f in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            rows = open(f).read().split('\n')[1:]
        except OSError:
            continue
        for r in rows:
            w = r.split()
            if len(w) > 3 and w[3] == '0A' and w[1].endswith(':%04X' % port):
                return True
    return False


def start(cmd, work, sock=None):
    p = subprocess.Popen(['sh', '-c', cmd], cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(200):                # up to 10 s for the stub to listen
        if p.poll() is not None or (sock and os.path.exists(os.path.join(work, sock))):
            break
        if not sock and listening(1234):
            break
        time.sleep(0.05)
    return p


def finish(p):
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        err += b'\n(still running: killed)'
        return -9, out.decode(errors='replace'), err.decode(errors='replace')
    return p.returncode, out.decode(errors='replace'), err.decode(errors='replace')


def in_order(want, got):
    """The lines of want, in order, among the lines of got ('...': any)."""
    lines = [g.rstrip() for g in got.split('\n')]
    i = 0
    for w in want:
        if w.strip() == '...':
            continue
        while i < len(lines) and lines[i] != w.rstrip():
            i += 1
        if i == len(lines):
            return w
        i += 1
    return None


def gdb_session(opts, body, work):
    """Run a (gdb) block: (status, stdout, stderr, problem or None)."""
    for sh in opts.get('setup', []):
        r = subprocess.run(['sh', '-e', '-c', sh], cwd=work, env=env, capture_output=True,
                           timeout=TIMEOUT)
        if r.returncode:
            return r.returncode, '', r.stderr.decode(errors='replace'), 'setup failed'
    cmd = opts['gdb'][-1]
    m = re.search(r'-gdb unix:(\S+)', cmd)
    if not m:
        return 1, '', '', 'gdb= needs -gdb unix:PATH'
    emu = start(cmd, work, m.group(1))
    cmds = [c.strip() for v in opts.get('before', []) for c in v.split(';') if c.strip()]
    want = []
    for b in body:
        if b.startswith('(gdb) '):
            cmds.append(re.sub(r'\s+#.*$', '', b[6:]).strip())
        elif b.strip():
            want.append(b)
    argv = ['gdb-multiarch', '-nx', '-batch', '-ex', 'set pagination off']
    if opts.get('script', ['no'])[-1] == 'yes':
        argv += ['-ex', 'source scripts/nxemu-gdb.py']
    argv += ['-ex', 'target extended-remote ' + m.group(1)]
    for c in cmds:
        argv += ['-ex', c]
    try:
        r = subprocess.run(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
        out, st = r.stdout.decode(errors='replace'), r.returncode
    except subprocess.TimeoutExpired:
        out, st = '(gdb still running after %d s)' % TIMEOUT, -9
    est, eout, eerr = finish(emu)      # the emulator ends once gdb has left
    missing = in_order(want, out + '\n' + eerr)
    prob = ('not shown as documented: %r' % missing) if missing else None
    if est == -9:
        prob = 'the emulator did not end after the session'
    return st, out, eerr, prob


ran = bad = skipped = 0
tests = meson_tests()
for page in pages:
    strict = True
    work = None
    whole = re.search(r'^\.\. runs-page: elsewhere=(\S+)\s*$',
                      open(os.path.join(root, page), encoding='utf-8').read(), re.M)
    if whole:
        if whole.group(1) in tests:
            print('%s: run by the %s test' % (page, whole.group(1)))
        else:
            print('%s: runs-page: no test %r in the meson.build files' % (page, whole.group(1)))
            bad += 1
        continue
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
        if mark.startswith('elsewhere='):
            if mark.split('=', 1)[1].split()[0] not in tests:
                print('%s: %s: no such test in the meson.build files' % (where, mark))
                bad += 1
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
        if 'save' in opts:
            with open(os.path.join(work, opts['save'][-1]), 'w', encoding='utf-8') as f:
                f.write(script)
            continue
        probs = []
        bg = None
        if 'gdb' in opts:
            status, out, err, prob = gdb_session(opts, body, work)
            probs += [prob] if prob else []
        else:
            if opts.get('background', ['first'])[-1] != 'first':
                bg = start(opts['background'][-1], work)   # what the text ran before
            elif 'background' in opts:
                n = 1
                while body[n - 1].rstrip().endswith('\\'):
                    n += 1
                first = re.sub(r'\s+#.*$', '', ' '.join(b.rstrip('\\') for b in body[:n]))
                bg = start(first, work)
                script = '\n'.join(body[n:]) + '\n'
            stdin = opts.get('stdin', [''])[-1].replace('\\n', '\n').encode()
            try:
                r = subprocess.run(['sh', '-e', '-c', script], cwd=work, env=env,
                                   input=stdin, capture_output=True, timeout=TIMEOUT)
                status, out, err = r.returncode, r.stdout.decode(errors='replace'), \
                    r.stderr.decode(errors='replace')
            except subprocess.TimeoutExpired:
                print('%s: still running after %d s:\n%s' % (where, TIMEOUT, script))
                bad += 1
                if bg:
                    os.killpg(bg.pid, signal.SIGKILL)
                continue
            if bg:
                bst, bout, berr = finish(bg)
                err += berr
                if bst < 0:
                    probs.append('the background command did not end')
        ran += 1
        want = int(opts.get('status', ['0'])[-1])
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
if shim:
    shutil.rmtree(shim, ignore_errors=True)
print('run-commands: %d blocks ran, %d skipped, %d problems' % (ran, skipped, bad))
sys.exit(1 if bad else 0)
