; ADDR8 operand forms (sequencer.md §5.1): immediate, register pair, and the
; four ADDR_TABLE forms, with the table written through the own NX block
; (ADDR_TABLE[i] at 0x100200 + 8i); table additions wrap modulo 2^64.
        .data
        .org 0x02000100
        .word 0x11, 0x22, 0x33, 0x44
        .text
        .org 0x01000000
        write.u32 [0x100218], 0x02000000        ; T[3] = 0x02000000
        write.u32 [0x10021c], 0
        write.u32 [0x100220], 0xffffff00        ; T[4] = 2^64 - 0x100
        write.u32 [0x100224], 0xffffffff
        tld.u32 {r1}, [t3 + 0x100], shape=(1,1), step=(0,0)             ; TBL_IMM32
        bne.u32 r1, 0x11, f1
        mov.u32 {r4, r5}, {0x104, 0}
        tld.u32 {r2}, [t3 + r4], shape=(1,1), step=(0,0)                ; TBL_REG
        bne.u32 r2, 0x22, f2
        tld.u32 {r3}, [t3 + r5:r4], shape=(1,1), step=(0,0)             ; TBL_REG64
        bne.u32 r3, 0x22, f3
        tld.u32 {r6}, [t3 + 0x108 wide], shape=(1,1), step=(0,0)        ; TBL_IMM48
        bne.u32 r6, 0x33, f4
        tld.u32 {r7}, [t4 + 0x0200020c], shape=(1,1), step=(0,0)        ; wraps to 0x0200010c
        bne.u32 r7, 0x44, f5
        mov.u32 {r10, r11}, {0x02000108, 0}
        tld.u32 {r12}, [r11:r10], shape=(1,1), step=(0,0)               ; ADDR_REG
        bne.u32 r12, 0x33, f6
        mov.u32 {r8}, {0x99}
        write.u32 [t3 + r4], r8                 ; register source, table address
        tld.u32 {r9}, [0x02000104], shape=(1,1), step=(0,0)
        bne.u32 r9, 0x99, f7
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
