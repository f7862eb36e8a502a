; Checklist 8: a TensorLoad u32 with an immediate start 0x02000002 fails
; valid_start_addr statically (id 10), at decode.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=valid_start_addr pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec aa 10 00 00 00 00 00 00 00 00 00 00 09 00 01 01 02 00 00 02 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
