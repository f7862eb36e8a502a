; ADDR8 marker 0x40 (shape from register) is rejected: addr8_marker.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=addr8_marker pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a5 10 00 00 00 00 00 00 00 00 00 00 01 09 00 00 00 00 00 00 00 00 00 40 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
