#!/usr/bin/env python3
"""Every reStructuredText page of the repository parses without a warning
(docutils, report level 2): a malformed table or an undefined substitution
renders as an error box on GitHub and in any HTML build, hiding the text.

usage: check-rst.py SRCROOT     (exit 77, skipped, without python3-docutils)
"""
import glob
import io
import os
import sys

try:
    import docutils.core
    import docutils.utils
except ImportError:
    print('check-rst: python3-docutils is not installed (scripts/deps.sh)')
    sys.exit(77)

root = sys.argv[1]
pages = sorted(glob.glob(os.path.join(root, 'docs', '**', '*.rst'), recursive=True))
pages.append(os.path.join(root, 'README.rst'))
bad = 0
for page in pages:
    with open(page, encoding='utf-8') as f:
        text = f.read()
    err = io.StringIO()
    try:
        docutils.core.publish_doctree(text, source_path=page,
                                      settings_overrides={'warning_stream': err,
                                                          'report_level': 2,
                                                          'halt_level': 5,
                                                          'file_insertion_enabled': False,
                                                          'raw_enabled': False})
    except docutils.utils.SystemMessage as e:
        err.write(str(e))
    for line in err.getvalue().splitlines():
        # one line per problem: FILE:LINE: (LEVEL/n) message
        if line.startswith(page):
            print(os.path.relpath(line, root) if os.path.isabs(line) else line)
            bad += 1
print('check-rst: %d pages, %d problems' % (len(pages), bad))
sys.exit(1 if bad else 0)
