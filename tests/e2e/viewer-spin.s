; Image for tests/e2e/test_viewer_gdb.py: writes 16 bytes into SBUF partition 3
; (PA 0x20_0000_0000 + 3 * 0x40000, identity-mapped), then spins until gdb
; interrupts it, so the window can only show the write if it is refreshed
; while gdb lets the machine run.
        .text
        .org 0x01000000
        tst.u32 [0x20000c0000], #{0x11111111, 0x22222222, 0x33333333, 0x44444444}, shape=(4,1), step=(1,0)
spin:   add.u32 r1, r1, 1
        b spin
