#!/usr/bin/env python3
"""The documentation is self-contained: every file README.rst and docs/
name is in the tree.  A clone has nothing beside it, so a page that cites
a specification outside the repository (``machine.md``, ``../shared/...``)
or a path that is not there sends the reader nowhere.

Checked, in README.rst and every docs/**/*.rst (pages added later are found
by the glob):
  - any NAME.md: it must be a file of the tree;
  - any reference to a directory outside the tree (../shared, /work/) or
    to a numbered section of a specification (§N); ../shared/vendor, where
    the vendor's tools are looked for at test time, is allowed;
  - any path under a top-level directory of the tree (docs/, tests/,
    scripts/, pc-bios/, examples/, ...): it must exist (a glob pattern must
    match something);
  - any bare NAME.rst: it must be a page under docs/.
Paths under build/ are outputs and are not checked, nor are names a page
marks as someone else's (a vendor repository's file is cited with its
repository: only paths starting with one of our top-level directories are
ours).

usage: check-refs.py SRCROOT [FILE...]   (files default to README + docs)
One line per problem, FILE:LINE: message; exit 1 if any.
"""
import glob
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
pages = sys.argv[2:] or (
    sorted(glob.glob(os.path.join(root, 'docs', '**', '*.rst'), recursive=True)) +
    [os.path.join(root, 'README.rst')])

TOP = ('docs', 'tests', 'scripts', 'pc-bios', 'examples', 'softmmu', 'hw',
       'target', 'tools', 'python', 'bench', 'include', '.ci')
path_re = re.compile(r'(?<![\w./-])((?:%s)/[\w./*{}-]*[\w/*}])' %
                     '|'.join(re.escape(t) for t in TOP))
md_re = re.compile(r'(?<![\w./-])([\w./-]+\.md)\b')
rst_re = re.compile(r'(?<![\w./-])([\w-]+\.rst)\b')
# ../shared/vendor is where the vendor's own tools are looked for, beside the
# checkout (never committed, tests skip without them): naming it tells a user
# where to put them.  Anything else under ../shared is reference material that
# a clone does not have.
outside_re = re.compile(r'\.\./shared(?!/vendor)|/work/|shared/spec|§')

tree_files = set()
for dp, dn, fn in os.walk(root):
    dn[:] = [d for d in dn if d not in ('.git',) and not d.startswith('build')]
    for f in fn:
        tree_files.add(os.path.relpath(os.path.join(dp, f), root))
md_names = {os.path.basename(f) for f in tree_files if f.endswith('.md')}
doc_pages = {os.path.basename(f) for f in tree_files
             if f.startswith('docs' + os.sep) and f.endswith('.rst')}


def exists(path):
    # an all-capitals component is a placeholder (X.dict, NAME.s)
    path = re.sub(r'(?<![\w])[A-Z][A-Z0-9_]*(?=\.\w+$)', '*', path)
    # a header is named by its include path, a program by its source
    if (os.path.exists(os.path.join(root, 'include', path)) or
            os.path.exists(os.path.join(root, path + '.c'))):
        return True
    if any(c in path for c in '*{'):
        pat = re.sub(r'\{[^}]*\}', '*', path)
        return bool(glob.glob(os.path.join(root, pat)))
    return os.path.exists(os.path.join(root, path.rstrip('/')))


bad = 0
for page in pages:
    rel = os.path.relpath(page, root)
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines, 1):
        probs = []
        if outside_re.search(line):
            probs.append('refers to a directory outside the tree: %r'
                         % outside_re.search(line).group(0))
        for m in md_re.finditer(line):
            name = m.group(1)
            if os.path.basename(name) not in md_names:
                probs.append('%s is not a file of the tree' % name)
        for m in path_re.finditer(line):
            p = m.group(1).rstrip('.')
            if not exists(p):
                probs.append('%s does not exist in the tree' % p)
        for m in rst_re.finditer(line):
            name = m.group(1)
            # a path's last component was checked above
            if line[max(0, m.start() - 1):m.start()] == '/':
                continue
            if name not in doc_pages and name != 'README.rst':
                probs.append('%s is not a page of docs/' % name)
        for p in probs:
            print('%s:%d: %s' % (rel, n, p))
            bad += 1
print('check-refs: %d pages, %d problems' % (len(pages), bad))
sys.exit(1 if bad else 0)
