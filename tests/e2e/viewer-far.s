; A store far beyond HBM: the fault's address, 0x7000000000, has 10 hex
; digits and must show whole in the viewer's cores panel (test_viewer.py).
        .text
        .org 0x01000000
start:  write.u32 [0x7000000000], 1
        halt
