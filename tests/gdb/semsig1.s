; gdb test image for sequencer 1 (cpu-num=1), beside semwait.s on
; sequencer 0: counts r1 to 3, releases sequencer 0's wait (sem1), then
; counts on until interrupted.
        .org 0x01100000
start:  add.u32 r1, r1, 1                                       ; 0x1100000
        blt.u32 r1, 3, start                                    ; 0x1100040
        nop post(sem1++)                                        ; 0x1100080
spin:   add.u32 r2, r2, 1                                       ; 0x11000c0
        b spin                                                  ; 0x1100100
