; A request both overlapping and running past the end of HBM: BAD_ADDRESS
; (step 2) is reported before OVERLAP (step 3), at the first bad source byte.
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=BAD_ADDRESS pc=0x0000000001000000 addr=0x0000000040000000
        .org 0x01000000
start:  dma src=[0x3ffffff0] sshape=(8,1) sstep=(1,0) sesz=4 dst=[0x3ffffff8] dshape=(8,1) dstep=(1,0) desz=4 sem=0 inc=0
        halt
