#!/usr/bin/env python3
"""The man pages are pages a user can act on (test_man.py checks that they
list every option): each has SYNOPSIS, DESCRIPTION,
EXIT STATUS, EXAMPLES and SEE ALSO, and every documentation file it points
at is one that `make install` puts under DOCDIR (a file of docs/).

usage: check-man.py SRCROOT DOCDIR PAGE.1...
"""
import os
import re
import sys

root, docdir, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
need = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO']
bad = 0
for page in pages:
    text = open(page, encoding='utf-8').read()
    name = os.path.basename(page)
    have = [h.strip('"') for h in re.findall(r'^\.SH (.*)$', text, re.M)]
    for sec in need:
        if sec not in have:
            print('%s: no %s section' % (name, sec))
            bad += 1
    plain = text.replace('\\-', '-')
    refs = re.findall(re.escape(docdir) + r'/([\w./-]+?)(?=[\s,;)]|\.$|\.\s)', plain, re.M)
    if not refs:
        print('%s: SEE ALSO names no installed documentation under %s' % (name, docdir))
        bad += 1
    for r in refs:
        if not os.path.exists(os.path.join(root, 'docs', r)):
            print('%s: %s/%s: docs/%s is not in the tree, so it is not installed'
                  % (name, docdir, r, r))
            bad += 1
    if 'docs/' in plain.split('.SH "SEE ALSO"')[-1]:
        print('%s: SEE ALSO names a source-tree docs/ path' % name)
        bad += 1
print('check-man: %d pages, %d problems' % (len(pages), bad))
sys.exit(1 if bad else 0)
