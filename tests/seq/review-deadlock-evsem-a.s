; EVENT_SEMAPHORE with both waits unsatisfied: wait a is shown (§8.1).
; exit: 124
; stderr: nxemu: deadlock: vtime=0
; stderr: nxemu:   core=0 pc=0x0000000001000000 state=BLOCKED wait=sem[1] gt 7 current=0
        .org 0x01000000
start:  evsem wait(sem1 > 7) wait(sem2 == 1)
        halt
