; Checklist 2 and 9 (§8.9 is_valid_tensor_load order): a TensorLoad with
; src_datasrc 1 and 3 x 11 elements fails mem2d_datasrc_zero (19) and
; mem2d_32_elem_check (21); 19 is reported.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=mem2d_datasrc_zero pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec aa 10 00 00 00 00 00 00 00 00 00 00 09 01 03 0b 00 00 00 02 00 00 00 00 01 00 00 00 03 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
