; A load through an entry with W but no R: PERMISSION_FAULT at the Neuron
; address (machine.md §2.2 step 3, loads need R).
; exit: 139
; stderr: nxemu: fault: core=0 code=PERMISSION_FAULT(7) info=0 pc=0x0000000001000080 addr=0x0000000002000010
        .data
        .org 0x03000000
        .quad 0, 0x0100000f, 0x02000005
        .text
        .org 0x01000000
start:  write.u32 [0x100138], 3
        write.u32 [0x100130], 0x03000000
        tld.u32 {r1}, [0x02000010], shape=(1,1), step=(0,0)
        halt
