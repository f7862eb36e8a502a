; -icount-limit 0: nothing executes; a core has something to run, so the
; first round ends with 123 and vtime 0 (machine.md §8).
; args: -icount-limit 0 -device loader,file=@IMAGE@
; exit: 123
; stderr: nxemu: limit: icount=0 vtime=0
        .org 0x01000000
start:  write.u32 [0x2805000000], 0x5555
        halt
