; The N-th instruction is the last HALT: the normal end of that round takes
; priority over the limit (machine.md §8, §12.5), exit 0, no limit line.
; args: -icount-limit 2 -device loader,file=@IMAGE@
; exit: 0
        .org 0x01000000
start:  nop
        halt
