; DMA issue checks in order (machine.md §5.1): a compute op (i32 add) with a
; source start not 4-aligned is MISALIGNED (step 1), although the
; destination (no memory at 0x30_0000_0000) would also fail BAD_ADDRESS.
; exit: 135
; stderr: nxemu: fault: core=0 code=MISALIGNED(4) info=0 pc=0x0000000001000000 addr=0x0000000002000002
        .org 0x01000000
start:  dma src=[0x02000002] sshape=(2,1) sstep=(1,0) sesz=4 dst=[0x3000000000] dshape=(2,1) dstep=(1,0) desz=4 sem=0 inc=0 op=add dt=i32
        halt
