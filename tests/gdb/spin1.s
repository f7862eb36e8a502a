; gdb test image for sequencer 1 (cpu-num=1): runs until interrupted.
        .org 0x01100000
spin:   add.u32 r1, r1, 1                                       ; 0x1100000
        b spin
