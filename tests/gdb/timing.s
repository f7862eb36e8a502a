; gdb test image for the timing test (docs/gdb.rst, "Run control"): seq0
; starts a DMA of four words, counts r1 to 100 (the loop body at
; 0x1000080..0x1000100) while it moves, waits for it and halts: the end of
; the run is seq0's HALT, so any cycle a debugger stop gave or took would
; move it.  timing1.s runs on seq1 meanwhile.
        .data
        .org 0x02000100
        .word 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
start:  dma src=[0x02000100] sshape=(4,1) sstep=(1,0) sesz=4 dst=[0x02000200] dshape=(4,1) dstep=(1,0) desz=4 sem=9 inc=1 ; 0x1000000
        mov.u32 {r1}, {0}                       ; 0x1000040
loop:   add.u32 r1, r1, 1                       ; 0x1000080
        add.u32 r2, r2, 3                       ; 0x10000c0
        blt.u32 r1, 100, loop                   ; 0x1000100
        nop wait(sem9 >= 1)                     ; 0x1000140
        halt                                    ; 0x1000180
