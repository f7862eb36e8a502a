; The `make run` demo (build/pc-bios/demo.elf): gathers a 4x4 table with
; TensorLoad, sums it, prints the sum in decimal through the console register,
; copies the table to SBUF with a DMA, waits on its completion semaphore,
; checks the copy and ends with PASS (exit status 0).
        .data
        .org 0x02000000
table:  .word 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3     ; sum 80
        .text
        .org 0x01000000
start:  mov.u32 {r1, r2, r3, r4}, {0, 0x02000000, 0, 4}        ; sum, row ptr (lo, hi), rows
row:    tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0)
        add.u32 r1, r1, r8
        add.u32 r1, r1, r9
        add.u32 r1, r1, r10
        add.u32 r1, r1, r11
        add.u32 r2, r2, 16
        sub.u32 r4, r4, 1
        bne.u32 r4, 0, row
        bne.u32 r1, 80, fail
        ; "nxemu demo: sum of the table = "
        tst.u8 [0x2805000004], #{0x6e, 0x78, 0x65, 0x6d, 0x75, 0x20, 0x64, 0x65, 0x6d, 0x6f, 0x3a, 0x20, 0x73, 0x75, 0x6d, 0x20, 0x6f, 0x66, 0x20, 0x74, 0x68, 0x65, 0x20, 0x74, 0x61, 0x62, 0x6c, 0x65, 0x20, 0x3d, 0x20}, shape=(31,1), step=(0,0)
        div.u32 r12, r1, 100                    ; hundreds
        div.u32 r13, r1, 10
        mod.u32 r13, r13, 10                    ; tens
        mod.u32 r14, r1, 10                     ; ones
        beq.u32 r12, 0, tens
        add.u32 r12, r12, 0x30
        write.u32 [0x2805000004], r12
        b tens1
tens:   beq.u32 r13, 0, ones
tens1:  add.u32 r13, r13, 0x30
        write.u32 [0x2805000004], r13
ones:   add.u32 r14, r14, 0x30
        write.u32 [0x2805000004], r14
        write.u32 [0x2805000004], 0x0a
        ; copy the table to SBUF partition 0 and wait for semaphore 1
        dma src=[0x02000000] sshape=(16,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(16,1) dstep=(1,0) desz=4 sem=1 inc=1
        tld.u32 {r15}, [0x200000003c], shape=(1,1), step=(0,0) wait(sem1 >= 1)
        bne.u32 r15, 3, fail
        ; "DMA copy to SBUF done, PASS\n"
        tst.u8 [0x2805000004], #{0x44, 0x4d, 0x41, 0x20, 0x63, 0x6f, 0x70, 0x79, 0x20, 0x74, 0x6f, 0x20, 0x53, 0x42, 0x55, 0x46, 0x20, 0x64, 0x6f, 0x6e, 0x65, 0x2c, 0x20, 0x50, 0x41, 0x53, 0x53, 0x0a}, shape=(28,1), step=(0,0)
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
