; Register TensorStore: 3 x 11 = 33 elements -> mem2d_store_num_elem_check.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=mem2d_store_num_elem_check pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec ab 10 00 00 00 00 00 00 00 00 00 00 09 00 03 0b 00 00 00 02 00 00 00 00 01 00 00 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
