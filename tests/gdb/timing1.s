; gdb test image for sequencer 1 of the timing test: counts r1 to 80.
        .org 0x01100000
start:  mov.u32 {r1}, {0}                       ; 0x1100000
loop:   add.u32 r1, r1, 1                       ; 0x1100040
        blt.u32 r1, 80, loop                    ; 0x1100080
        halt                                    ; 0x11000c0
