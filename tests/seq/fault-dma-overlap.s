; DMA issue-time checks (machine.md §5.1; checklist item 17): overlap.
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=OVERLAP pc=0x0000000001000000 addr=0x0000000002000080
        .org 0x01000000
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x02000080] dshape=(64,1) dstep=(1,0) desz=4 sem=0 inc=0
        halt
