; gdb test image: sequencer 0 launches the kernel preloaded on TPC 0
; (KERNEL_BASE set by the loader), waits for its completion semaphore,
; then reports PASS (machine.md §6, §7).
        .org 0x01000000
        write.u32 [0x2804001000], 0x80000005                     ; COMPLETION_SEM = 5
        write.u32 [0x2804001008], 1                              ; EXECUTE
        nop wait(sem5 >= 1)
        mov.u32 {r2}, {0x5555}
        write.u32 [0x2805000000], r2
        halt
