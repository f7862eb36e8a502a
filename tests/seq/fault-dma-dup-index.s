; Scatter with a repeated destination index and non_unique_dst_idx = 0:
; DUP_INDEX at the PA of the first entry repeating an earlier value
; (indices {1, 2, 1} at SBUF offset 0x100: the third entry, 0x2000000108).
; exit: 135
; stderr: nxemu: fault: core=0 code=DMA_ERROR(9) info=DUP_INDEX pc=0x0000000001000040 addr=0x0000002000000108
        .org 0x01000000
        tst.u32 [0x2000000100], #{1, 2, 1}, shape=(3,1), step=(1,0)
        dmai.scatter src=[0x02000000] sn=3 sstep=1 sesz=4 dst=[0x03000000] dn=3 dstep=1 desz=4 didx=0x100 sem=0 inc=0
        halt
