; An invalid window table entry (V = 0): TRANSLATION_FAULT.
; exit: 139
; stderr: nxemu: fault: core=0 code=TRANSLATION_FAULT(6) info=0 pc=0x0000000001000080 addr=0x0000000007000000
        .data
        .org 0x03000000
        .quad 0, 0x0100000f, 0x02000007, 0, 0x02000003, 0, 0x02000007, 0
        .text
        .org 0x01000000
        write.u32 [0x100138], 8
        write.u32 [0x100130], 0x03000000
        tld.u32 {r1}, [0x07000000], shape=(1,1), step=(0,0)
        halt
