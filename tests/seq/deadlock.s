; A wait no actor can satisfy (checklist item 12): the first round retires the
; mov, so the deadlock is reported at the end of the second round (vtime 64)
; with the per-core line of machine.md §9.3.
; exit: 124
; stderr: nxemu: deadlock: vtime=64
; stderr: nxemu:   core=0 pc=0x0000000001000040 state=BLOCKED wait=sem[3] ge 1 current=0
        .org 0x01000000
        mov.u32 {r1}, {1}
        nop wait(sem3 >= 1)
        halt
