; A register-pair start not aligned to the element size faults at phase E
; with MISALIGNED and FAULT_ADDR = the address (checklist item 8).
; exit: 135
; stderr: nxemu: fault: core=0 code=MISALIGNED(4) info=0 pc=0x0000000001000040 addr=0x0000000002000002
        .org 0x01000000
        mov.u32 {r2, r3}, {0x02000002, 0}
        tld.u32 {r1}, [r3:r2], shape=(1,1), step=(0,0)
        halt
