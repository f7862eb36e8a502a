; gdb test image for sequencer 0: waits on a semaphore nobody signals (run
; with spin1.s on sequencer 1, so the machine never deadlocks).
        .org 0x01000000
start:  nop wait(sem1 >= 1)                                     ; 0x1000000
        halt                                                    ; 0x1000040
