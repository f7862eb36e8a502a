; Image for the viewer's time cursor test (tests/e2e/test_viewer_scrub.py):
; writes SBUF partition 3 at vtime 0, then waits for a 64 KiB DMA from HBM
; to HBM (engine 0, cost 32 + 65536 / 64 = 1056 cycles, docs/machine.rst;
; it touches no SBUF/PSUM), then writes SBUF partition 70 and passes through
; the test device.  A cursor between the two writes must show partition 3
; only; one after both, both.
        .text
        .org 0x01000000
        tst.u32 [0x20000c0000], #{0x11111111, 0x22222222, 0x33333333, 0x44444444}, shape=(4,1), step=(1,0)
        dma src=[0x02010000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x02020000] dshape=(1,1) dstep=(0,0) desz=0 sem=9 inc=1
        nop wait(sem9 >= 1)
        tst.u32 [0x2001180000], #{0x55555555, 0x66666666, 0x77777777, 0x88888888}, shape=(4,1), step=(1,0)
        write.u32 [0x2805000000], 0x5555
        halt
