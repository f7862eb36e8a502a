; Two sequencers, one DMA transfer and one TPC kernel (timeline.tpc.s, loaded
; at 0x100000 for TPC 0), for the timeline and statistics tests.
; Core 0: 256-byte DMA (sem9 += 1), waits for it, launches the kernel on
; TPC 0 (completion: sem5 += 1), waits, then releases core 1 through sem10.
; Core 1: blocks on sem10, then halts.
        .data
        .org 0x02000000
        .word 1, 2, 3, 4
        .text
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, core1
        dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x02001000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1
        nop wait(sem9 >= 1)
        write.u32 [0x2804000438], 0x01100000
        write.u32 [0x2804000444], 0x00000102
        write.u32 [0x2804000448], 64
        write.u32 [0x280400044c], 1
        write.u32 [0x28040007c0], 40
        write.u32 [0x2804001000], 0x80000005
        write.u32 [0x2804001008], 1
        nop wait(sem5 >= 1)
        nop post(sem10++)
        halt
core1:  nop wait(sem10 >= 1)
        halt
