; A core writing STOP | RUN (3) to its own CONTROL (machine.md §3): the
; action follows the write's retirement and bits apply STOP then RUN, so
; the core halts and at once runs again at the next instruction, which ends
; the run with FAIL 7 (a lost RUN would halt the core: normal end, 0).
; exit: 7
        .org 0x01000000
start:  write.u32 [0x10010c], 3
        write.u32 [0x2805000000], 0x00073333
        halt
