; gdb test image: DMA_INDIRECT reads its source index array (SBUF partition 0,
; offset 0x100) when it issues at 0x1000040, so a watchpoint on the array stops
; before that instruction (docs/gdb.rst, "Watchpoints: what is exact").
        .data
        .org 0x02000100
        .word 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
        tst.u32 [0x2000000100], #{3, 2, 1, 0}, shape=(4,1), step=(1,0)       ; 0x1000000: indices
        dmai.gather src=[0x02000100] sn=4 sstep=1 sesz=4 dst=[0x02000200] dn=4 dstep=1 desz=4 sidx=0x100 sem=9 inc=1 ; 0x1000040
        nop wait(sem9 >= 1)                     ; 0x1000080
        write.u32 [0x2805000000], 0x5555        ; 0x10000c0: PASS
        halt
