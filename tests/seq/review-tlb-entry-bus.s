; WT_BASE = 0x30_0000_0000 (no memory there): the miss for window 1 reads the
; entry at PA 0x3000000008 -> BUS_ERROR with FAULT_ADDR = the entry's PA
; (machine.md §2.2, §9.1).  Writing WT_BASE's high half enables translation.
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000080 addr=0x0000003000000008
        .org 0x01000000
start:  write.u32 [0x100138], 4
        write.u32 [0x100134], 0x30
        nop
        halt
