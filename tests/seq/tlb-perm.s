; A store through a window entry without W: PERMISSION_FAULT at the Neuron
; address (checklist item 16).
; exit: 139
; stderr: nxemu: fault: core=0 code=PERMISSION_FAULT(7) info=0 pc=0x0000000001000080 addr=0x0000000004000020
        .data
        .org 0x03000000
        .quad 0, 0x0100000f, 0x02000007, 0, 0x02000003, 0, 0x02000007, 0
        .text
        .org 0x01000000
        write.u32 [0x100138], 8
        write.u32 [0x100130], 0x03000000
        write.u32 [0x04000020], 1
        halt
