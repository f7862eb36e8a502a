; Checklist 15: MOVE with num_mov 0 -> ctrl_mv_valid_num (32).
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=ctrl_mv_valid_num pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a7 10 00 00 00 00 00 00 00 00 00 00 00 09 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
