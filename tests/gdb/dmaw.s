; gdb test image: a DMA and a NOTIFY into watched buffers (docs/gdb.rst,
; "Watchpoints: what is exact").  The DMA copies 0x11..0x44 to 0x2000200
; while the core waits for its semaphore; NOTIFY writes queue 0's first
; entry {pc, payload 0x55, core 0, queue 0, kind 1} at 0x2100000.
        .data
        .org 0x02000100
        .word 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
        dma src=[0x02000100] sshape=(4,1) sstep=(1,0) sesz=4 dst=[0x02000200] dshape=(4,1) dstep=(1,0) desz=4 sem=9 inc=1 ; 0x1000000
        nop wait(sem9 >= 1)                     ; 0x1000040
        write.u32 [0x100400], 0x02100000        ; 0x1000080: NQ0_BASE
        write.u32 [0x100408], 2                 ; 0x10000c0: NQ0_SIZE
        notify 0, 0x55                          ; 0x1000100
        mov.u32 {r2}, {0x5555}                  ; 0x1000140
        write.u32 [0x2805000000], r2            ; 0x1000180: PASS
        halt
