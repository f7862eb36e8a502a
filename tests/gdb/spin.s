; gdb test image: runs until interrupted.
        .org 0x01000000
spin:   add.u32 r1, r1, 1
        b spin
