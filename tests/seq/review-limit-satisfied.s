; A -cycle-limit report after a DMA completion satisfied a core's wait: a
; 64 KiB copy costs 32 + 65536/64 = 1056 cycles, so it completes in round 16
; (T = 1024) and sets sem9 to 1; the core blocked on sem9 >= 1 in round 0
; and retries only in its next slice, round 17.  The limit (1040, checked
; after T += Q) stops the run at vtime 1088, before that slice: the wait
; holds, so the core is reported ready and retrying, not blocked.
; args: -cycle-limit 1040 -device loader,file=@IMAGE@
; exit: 123
; stderr: nxemu: limit: icount=1 vtime=1088
; stderr: nxemu:   core=0 pc=0x0000000001000040 state=READY retries wait=sem[9] ge 1 current=1 (holds now)
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x03000000] dshape=(1,1) dstep=(0,0) desz=0 sem=9 inc=1
        nop wait(sem9 >= 1)
        halt
