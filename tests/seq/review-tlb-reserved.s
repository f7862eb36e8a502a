; A window table entry with a reserved bit (bit 4) set is malformed:
; TRANSLATION_FAULT even though V/R/W/X are set (machine.md §2.2).
; exit: 139
; stderr: nxemu: fault: core=0 code=TRANSLATION_FAULT(6) info=0 pc=0x0000000001000080 addr=0x0000000001000080
        .data
        .org 0x03000000
        .quad 0, 0x0100001f
        .text
        .org 0x01000000
start:  write.u32 [0x100138], 2
        write.u32 [0x100130], 0x03000000
        nop
        halt
