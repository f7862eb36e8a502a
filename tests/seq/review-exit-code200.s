; FINISHER FAIL codes above 122 are reported as 122 (machine.md §7, §9.2).
; exit: 122
        .org 0x01000000
start:  write.u32 [0x2805000000], 0x00c83333
        halt
