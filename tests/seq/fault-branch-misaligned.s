; A taken branch to a target that is not a multiple of 64 faults at the
; branch, with FAULT_ADDR = the target and no link written (checklist 13).
; exit: 135
; stderr: nxemu: fault: core=0 code=MISALIGNED(4) info=0 pc=0x0000000001000040 addr=0x0000000001000060
; stderr: nxemu:   at pc=0x0000000001000040: b .+r1
        .org 0x01000000
        mov.u32 {r1}, {0x20}
        b .+r1
        halt
