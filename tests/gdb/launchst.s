; gdb test image: sequencer 0 describes tensor 0 of TPC 0 (tpc.md §3.1:
; base PA 0x101000 = KERNEL_BASE 0x100000 + 0x1000, i32, dim 0 only, size
; 64, stride 1), launches the kernel preloaded by the loader (tpcst.s),
; waits for its completion semaphore, then reports PASS (machine.md §6, §7).
        .org 0x01000000
        write.u32 [0x2804000400], 0x101000                       ; TENSOR0 BASE_ADDR_LOW
        write.u32 [0x280400040c], 0x102                          ; TENSOR_CONFIG: E=4, dim 0
        write.u32 [0x2804000410], 64                             ; DIM_0_SIZE
        write.u32 [0x2804000414], 1                              ; DIM_0_STRIDE
        write.u32 [0x2804001000], 0x80000005                     ; COMPLETION_SEM = 5
        write.u32 [0x2804001008], 1                              ; EXECUTE
        nop wait(sem5 >= 1)
        mov.u32 {r2}, {0x5555}
        write.u32 [0x2805000000], r2
        halt
