; Translation on with WT_LEN = 1: window 1 is beyond the table, so the next
; fetch misses and raises TRANSLATION_FAULT at its own address (§2.2 step 2).
; exit: 139
; stderr: nxemu: fault: core=0 code=TRANSLATION_FAULT(6) info=0 pc=0x0000000001000080 addr=0x0000000001000080
        .data
        .org 0x03000000
        .quad 0x0100000f, 0x0100000f
        .text
        .org 0x01000000
start:  write.u32 [0x100138], 1
        write.u32 [0x100130], 0x03000000
        nop
        halt
