; EVSEM is not DMA-able memory (machine.md §4.2): BAD_ADDRESS.
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=BAD_ADDRESS pc=0x0000000001000000 addr=0x0000002802701000
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=4 dst=[0x2802701000] dshape=(1,1) dstep=(0,0) desz=4 sem=0 inc=0
        halt
