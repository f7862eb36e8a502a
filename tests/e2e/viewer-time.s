; Image for the viewer's timeline, table and data-view test
; (tests/e2e/test_viewer_panels.py), run on two sequencers with
; viewer-time.tpc.s loaded at 0x100000 for TPC 0.
; Core 0: a 64 KiB DMA (one element of size 0 = 65536 bytes) from HBM to SBUF
;   partition 8 on engine 0, cost 32 + 65536 / 64 = 1056 cycles
;   (docs/machine.rst); waits for it; runs the kernel on TPC 0 (completion:
;   sem5 += 1); waits for core 1 (sem10), then passes through the test device.
; Core 1: writes element i of SBUF partition p (p, i = 0..3) as the u32
;   4p + i; waits for core 0's DMA; then a 256-byte DMA to partition 9 on
;   engine 1, cost 32 + 4 = 36 cycles; then releases core 0.
        .data
        .org 0x02000000
        .word 1, 2, 3, 4
        .text
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, core1
        dma src=[0x02010000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x2000200000] dshape=(1,1) dstep=(0,0) desz=0 sem=9 inc=1
        nop wait(sem9 >= 1)
        write.u32 [0x2804000438], 0x01100000
        write.u32 [0x2804000444], 0x00000102
        write.u32 [0x2804000448], 64
        write.u32 [0x280400044c], 1
        write.u32 [0x28040007c0], 40
        write.u32 [0x2804001000], 0x80000005
        write.u32 [0x2804001008], 1
        nop wait(sem5 >= 1)
        nop wait(sem10 >= 1)
        write.u32 [0x2805000000], 0x5555
        halt
core1:  tst.u32 [0x2000000000], #{0, 1, 2, 3}, shape=(4,1), step=(1,0)
        tst.u32 [0x2000040000], #{4, 5, 6, 7}, shape=(4,1), step=(1,0)
        tst.u32 [0x2000080000], #{8, 9, 10, 11}, shape=(4,1), step=(1,0)
        tst.u32 [0x20000c0000], #{12, 13, 14, 15}, shape=(4,1), step=(1,0)
        nop wait(sem9 >= 1)
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000240000] dshape=(64,1) dstep=(1,0) desz=4 sem=11 inc=1
        nop wait(sem11 >= 1)
        nop post(sem10++)
        halt
