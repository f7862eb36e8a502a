; gdb test image: launchst.s with tensor 0 at PA 0x2000000, where sequencer
; 0 sees it too (windows map to PA unchanged, machine.rst): i32, dim 0 only,
; size 64, stride 1 (tpc.md §3.1).  It launches the kernel preloaded by the
; loader (tpcst.s), waits for its completion semaphore, then reports PASS.
        .org 0x01000000
        write.u32 [0x2804000400], 0x2000000                      ; TENSOR0 BASE_ADDR_LOW
        write.u32 [0x280400040c], 0x102                          ; TENSOR_CONFIG: E=4, dim 0
        write.u32 [0x2804000410], 64                             ; DIM_0_SIZE
        write.u32 [0x2804000414], 1                              ; DIM_0_STRIDE
        write.u32 [0x2804001000], 0x80000005                     ; COMPLETION_SEM = 5
        write.u32 [0x2804001008], 1                              ; EXECUTE
        nop wait(sem5 >= 1)
        mov.u32 {r2}, {0x5555}
        write.u32 [0x2805000000], r2
        halt
