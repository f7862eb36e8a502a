; Deadlock line for an event-clear wait (machine.md §12.6): mode evt-clear,
; value omitted, current = 1 (the event was set by the previous update).
; exit: 124
; stderr: nxemu: deadlock: vtime=64
; stderr: nxemu:   core=0 pc=0x0000000001000040 state=BLOCKED wait=evt[3] evt-clear current=1
        .org 0x01000000
start:  nop post(evt3 set)
        nop wait(evt3 clear)
        halt
