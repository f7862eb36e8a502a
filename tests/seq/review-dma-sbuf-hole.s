; SBUF partitions have a 256 KiB pitch but 192 KiB populated (machine.md
; §1): a destination running from 0x200002fff0 over 32 bytes hits the hole
; at 0x2000030000 -> BAD_ADDRESS at that first byte.
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=BAD_ADDRESS pc=0x0000000001000000 addr=0x0000002000030000
        .org 0x01000000
start:  dma src=[0x02000000] sshape=(8,1) sstep=(1,0) sesz=4 dst=[0x200002fff0] dshape=(8,1) dstep=(1,0) desz=4 sem=0 inc=0
        halt
