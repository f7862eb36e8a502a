; Image for the SDL viewer test (tests/e2e/test_viewer.py): writes into SBUF
; partitions 3 and 70 only (PA 0x20_0000_0000 + p * 0x40000, machine.md §1.1,
; reached through the identity mapping while WT_BASE = 0), reads nothing else
; from SBUF/PSUM, and passes through the test device.  The screenshot must
; show those two partitions highlighted and the other 126 dark.
        .text
        .org 0x01000000
        tst.u32 [0x20000c0000], #{0x11111111, 0x22222222, 0x33333333, 0x44444444}, shape=(4,1), step=(1,0)
        tst.u32 [0x2001180000], #{0x55555555, 0x66666666, 0x77777777, 0x88888888}, shape=(4,1), step=(1,0)
        write.u32 [0x2805000000], 0x5555
        halt
