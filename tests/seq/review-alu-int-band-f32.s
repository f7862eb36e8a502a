; ADD_INT (0xC4) on FP32 needs an integer dtype: alu_op_dtype.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=alu_op_dtype pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 c4 0a 00 00 01 00 02 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
