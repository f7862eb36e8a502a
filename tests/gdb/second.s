; gdb test image for sequencer 1 (cpu-num=1): sets r3 and halts.
        .org 0x01100000
start:  mov.u32 {r3}, {42}                                      ; 0x1100000
        halt                                                    ; 0x1100040
