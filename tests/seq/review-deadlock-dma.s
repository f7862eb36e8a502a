; A DMA completion that satisfies nothing (machine.md §8): a 64 KiB copy
; costs 32 + 65536/64 = 1056 cycles, so the engine works through rounds
; 0..16 and completes in round 16 (T = 1024); that round is not a deadlock,
; the next one is: vtime = 1088.  The wait needs sem9 >= 2; sem9 ends at 1.
; exit: 124
; stderr: nxemu: deadlock: vtime=1088
; stderr: nxemu:   core=0 pc=0x0000000001000040 state=BLOCKED wait=sem[9] ge 2 current=1
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x03000000] dshape=(1,1) dstep=(0,0) desz=0 sem=9 inc=1
        nop wait(sem9 >= 2)
        halt
