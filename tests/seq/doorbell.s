; The DMA engines' MMIO doorbell (machine.md §5.3): a DMA_MEMCPY record in
; memory, DESC_ADDR, DOORBELL = 1; the request completes with its semaphore
; like an instruction's.  A record with a nonzero events field is rejected:
; ERROR = kind 6, a warning on stderr, no fault.
; stderr-prefix: nxemu: warning:
        .data
        .org 0x02000000
        .word 0x11, 0x22, 0x33, 0x44
        .org 0x02000200                         ; dma 4 x 4 bytes -> SBUF, sem=3 inc=1
        .quad 0x10b8, 0x0001030000000000, 0x02000000, 1, 0x0000000400010004, 0x2000000000, 1, 0x0909000400010004
        .org 0x02000240                         ; the same with wait_mode 5 in the events field
        .quad 0x00000005000010b8, 0x0001030000000000, 0x02000000, 1, 0x0000000400010004, 0x2000000000, 1, 0x0909000400010004
        .text
        .org 0x01000000
        write.u32 [0x2803800018], 0x02000200    ; engine 0 DESC_ADDR
        write.u32 [0x280380001c], 0
        write.u32 [0x2803800020], 1             ; DOORBELL
        tld.u32 {r1, r2, r3, r4}, [0x2000000000], shape=(4,1), step=(1,0) wait(sem3 >= 1)
        bne.u32 r4, 0x44, f1
        bne.u32 r1, 0x11, f2
        tld.u32 {r5}, [0x2803800024], shape=(1,1), step=(0,0)
        bne.u32 r5, 0, f3                       ; nothing rejected yet
        write.u32 [0x2803800018], 0x02000240
        write.u32 [0x2803800020], 1
        tld.u32 {r6}, [0x2803800024], shape=(1,1), step=(0,0)
        bne.u32 r6, 0x60000, f4                 ; kind 6: events field nonzero
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
