; gdb test image: sequencer 0 launches the kernel preloaded on TPC 0
; (tpck.s), waits for its completion semaphore (sem5), then counts r1 until
; interrupted (test_gdb_attach_all.py).
        .org 0x01000000
        write.u32 [0x2804001000], 0x80000005    ; 0x1000000 COMPLETION_SEM = 5
        write.u32 [0x2804001008], 1             ; 0x1000040 EXECUTE
        nop wait(sem5 >= 1)                     ; 0x1000080
spin:   add.u32 r1, r1, 1                       ; 0x10000c0
        b spin                                  ; 0x1000100
