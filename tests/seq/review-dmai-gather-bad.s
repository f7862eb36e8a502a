; DMA_INDIRECT BAD_ADDRESS walk order (machine.md §5.1): source elements
; before destination ones.  Gather indices {0, 0x100000}, 4 KiB elements:
; the second source element is at 0x02000000 + 0x100000 * 4096 =
; 0x102000000, beyond the 1 GiB of HBM; the destination (0x30_0000_0000)
; is bad too but is checked later.
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=BAD_ADDRESS pc=0x0000000001000040 addr=0x0000000102000000
        .org 0x01000000
start:  tst.u32 [0x2000000100], #{0, 0x100000}, shape=(2,1), step=(1,0)
        dmai.gather src=[0x02000000] sn=2 sstep=1 sesz=4096 dst=[0x3000000000] dn=2 dstep=1 desz=4096 sidx=0x100 sem=0 inc=0
        halt
