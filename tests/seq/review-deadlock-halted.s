; Deadlock lines (machine.md §9.3, §12.6): core 1 HALTED prints up to state=
; and nothing after (pc = its HALT + 64); core 0 waits in an EVENT_SEMAPHORE
; whose wait a holds and wait b does not, so wait b is shown.
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
; exit: 124
; stderr: nxemu: deadlock: vtime=64
; stderr: nxemu:   core=0 pc=0x0000000001000080 state=BLOCKED wait=sem[6] eq 3 current=0
; stderr: nxemu:   core=1 pc=0x0000000001001040 state=HALTED
        .org 0x01000000
start:  tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)
        bne.u32 r1, 0, core1
        evsem wait(sem5 >= 0) wait(sem6 == 3)
        halt
        .org 0x01001000
core1:  halt
