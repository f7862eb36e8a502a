; -icount-limit N (machine.md §8): after the 3rd instruction nothing more
; runs; exit 123 with the limit line, vtime = VTIME just after it retired.
; args: -icount-limit 3 -device loader,file=@IMAGE@
; exit: 123
; stderr: nxemu: limit: icount=3 vtime=3
        .org 0x01000000
start:  nop
        nop
        nop
        write.u32 [0x2805000000], 0x00053333
        halt
