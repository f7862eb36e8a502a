#!/usr/bin/env python3
"""Embed a binary file as a C array: bin2c.py INPUT OUTPUT.c SYMBOL"""
import sys

data = open(sys.argv[1], 'rb').read()
sym = sys.argv[3]
with open(sys.argv[2], 'w') as out:
    out.write('#include <stddef.h>\n#include <stdint.h>\n')
    out.write('const uint8_t %s[] __attribute__((aligned(8))) = {\n' % sym)
    for i in range(0, len(data), 16):
        out.write('    ' + ', '.join('0x%02x' % b for b in data[i:i + 16]) + ',\n')
    out.write('};\nconst size_t %s_len = %d;\n' % (sym, len(data)))
