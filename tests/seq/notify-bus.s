; A ring outside HBM/SBUF/PSUM (here the test device): the NOTIFY faults with
; BUS_ERROR and FAULT_ADDR = the entry's PA.
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x00000000010000c0 addr=0x0000002805000000
        .org 0x01000000
        write.u32 [0x100400], 0x05000000
        write.u32 [0x100404], 0x28
        write.u32 [0x100408], 4
        notify 0, 1
        halt
