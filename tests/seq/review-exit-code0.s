; FINISHER FAIL with code 0 becomes exit status 1 (machine.md §7).
; exit: 1
        .org 0x01000000
start:  write.u32 [0x2805000000], 0x00003333
        halt
