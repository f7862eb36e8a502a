; dst_dtype UINT32 with dtype INT32: alu_dst_dtype.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=alu_dst_dtype pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 04 08 00 09 01 00 02 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
