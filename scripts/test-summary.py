#!/usr/bin/env python3
"""Print the closing 'N passed, N failed' line from meson's test log."""
import json
import sys

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
passed = failed = skipped = 0
with open(f'{build}/meson-logs/testlog.json') as f:
    for line in f:
        r = json.loads(line)
        res = r.get('result')
        if res in ('OK', 'EXPECTEDFAIL'):
            passed += 1
        elif res == 'SKIP':
            skipped += 1
        else:
            failed += 1
print(f'{passed} passed, {failed} failed, {skipped} skipped')
sys.exit(1 if failed else 0)
