; WRITE from a register with a nonzero immediate: wr_fields.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=wr_fields pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a5 10 00 00 00 00 00 00 00 00 00 00 00 09 01 00 00 00 00 02 00 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
