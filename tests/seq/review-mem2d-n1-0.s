; Checklist 6: n1 = 0 -> mem2d_num_elem_range (1 <= n1).
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=mem2d_num_elem_range pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec aa 10 00 00 00 00 00 00 00 00 00 00 09 00 01 00 00 00 00 02 00 00 00 00 01 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
