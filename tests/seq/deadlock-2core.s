; Two cores run this image; each waits for an event nobody sets, core 1 after
; a register wait form.  Every non-RESET core gets a deadlock line.
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
; exit: 124
; stderr: nxemu: deadlock: vtime=64
; stderr: nxemu:   core=0 pc=0x0000000001000080 state=BLOCKED wait=evt[2] evt-set current=0
; stderr: nxemu:   core=1 pc=0x00000000010000c0 state=BLOCKED wait=sem[4] lt R5 current=0
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, one
        nop wait(evt2 set)
one:    nop wait(sem4 < r5)                                    ; 0 < 0 never holds
        halt
