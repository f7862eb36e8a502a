; BITWISE_AND on FP32: alu_op_dtype.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=alu_op_dtype pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 0a 0a 00 00 01 00 02 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
