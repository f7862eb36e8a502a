; Window 0 holds only the own NX block: fetching from it is a BUS_ERROR,
; raised by the fetch of the branch target.
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000000100000 addr=0x0000000000100000
        .org 0x01000000
        b abs 0x100000
