; A FINISHER write by the N-th instruction wins over the limit (§8, §12.5).
; args: -icount-limit 2 -device loader,file=@IMAGE@
; exit: 4
        .org 0x01000000
start:  nop
        write.u32 [0x2805000000], 0x00043333
        halt
