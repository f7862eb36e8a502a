; A branch into a window whose entry lacks X: the fault is raised by the
; fetch of the target (PERMISSION_FAULT, pc = addr = the target).
; exit: 139
; stderr: nxemu: fault: core=0 code=PERMISSION_FAULT(7) info=0 pc=0x0000000006000000 addr=0x0000000006000000
        .data
        .org 0x03000000
        .quad 0, 0x0100000f, 0x02000007, 0, 0x02000003, 0, 0x02000007, 0
        .text
        .org 0x01000000
        write.u32 [0x100138], 8
        write.u32 [0x100130], 0x03000000
        b abs 0x06000000
        halt
