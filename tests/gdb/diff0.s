; gdb differential test, sequencer 0 (test_gdb_diff.py): starts a DMA of
; four words (sem9) and TPC 0's kernel (sem5), counts r1 to 50 adding 3 to
; r2 each pass while both run, waits for both, releases sequencer 1 (sem1),
; waits for its answer (sem2) and halts.
        .data
        .org 0x02000100
        .word 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
start:  dma src=[0x02000100] sshape=(4,1) sstep=(1,0) sesz=4 dst=[0x02000200] dshape=(4,1) dstep=(1,0) desz=4 sem=9 inc=1 ; 0x1000000
        write.u32 [0x2804001000], 0x80000005    ; 0x1000040 COMPLETION_SEM = 5
        write.u32 [0x2804001008], 1             ; 0x1000080 EXECUTE
        mov.u32 {r1}, {0}                       ; 0x10000c0
loop:   add.u32 r1, r1, 1                       ; 0x1000100
        add.u32 r2, r2, 3                       ; 0x1000140
        blt.u32 r1, 50, loop                    ; 0x1000180
        nop wait(sem9 >= 1)                     ; 0x10001c0
        nop wait(sem5 >= 1)                     ; 0x1000200
        nop post(sem1++)                        ; 0x1000240
        nop wait(sem2 >= 1)                     ; 0x1000280
        halt                                    ; 0x10002c0
