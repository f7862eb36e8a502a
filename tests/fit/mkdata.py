#!/usr/bin/env python3
"""mkdata.py OUT FIRST: sixteen little-endian u32 words FIRST, FIRST+1, ..."""
import struct
import sys

first = int(sys.argv[2])
with open(sys.argv[1], 'wb') as f:
    f.write(b''.join(struct.pack('<I', first + i) for i in range(16)))
