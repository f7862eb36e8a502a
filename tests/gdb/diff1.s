; gdb differential test, sequencer 1: counts r1 to 40, waits for sequencer
; 0 (sem1), sets r3, answers (sem2) and halts.
        .org 0x01100000
start:  mov.u32 {r1}, {0}                       ; 0x1100000
loop:   add.u32 r1, r1, 1                       ; 0x1100040
        blt.u32 r1, 40, loop                    ; 0x1100080
        nop wait(sem1 >= 1)                     ; 0x11000c0
        mov.u32 {r3}, {0x77}                    ; 0x1100100
        nop post(sem2++)                        ; 0x1100140
        halt                                    ; 0x1100180
