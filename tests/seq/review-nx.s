; The own NX block (machine.md §3, §12.3, §12.10) read by a running core:
; PC reads give the reading instruction's address (own window and global
; alias), an 8-byte access spans R[n] | R[n+1] << 32 both ways, RETIRED
; counts earlier instructions, STATUS = RUNNING, reset values of CORE_ID,
; NUM_CORES, TLB_ENTRIES, DMA_ENGINE; a PC write while RUNNING is ignored.
        .org 0x01000000
start:  tld.u32 {r1, r2}, [0x100100], shape=(2,1), step=(1,0)  ; 0x01000000
        tld.u32 {r3}, [0x2803000100], shape=(1,1), step=(0,0)    ; 0x01000040
        tld.u32 {r10, r11}, [0x100128], shape=(2,1), step=(1,0)  ; RETIRED, 2 before
        bne.u32 r1, 0x01000000, f1
        bne.u32 r2, 0, f2
        bne.u32 r3, 0x01000040, f3
        bne.u32 r10, 2, f4
        bne.u32 r11, 0, f4
        mov.u32 {r4, r5}, {0x11111111, 0x22222222}
        tld.u64 {r6}, [0x100010], shape=(1,1), step=(0,0)        ; R4 | R5 << 32
        bne.u32 r6, 0x11111111, f5
        bne.u32 r7, 0x22222222, f6
        mov.u32 {r20, r21}, {0x33333333, 0x44444444}
        tst.u64 [0x100020], {r20}, shape=(1,1), step=(0,0)       ; writes R8 and R9
        bne.u32 r8, 0x33333333, f7
        bne.u32 r9, 0x44444444, f8
        tld.u32 {r12}, [0x100108], shape=(1,1), step=(0,0)       ; STATUS
        and.u32 r12, r12, 0xf
        bne.u32 r12, 1, f9
        tld.u32 {r13, r14}, [0x100158], shape=(2,1), step=(1,0)  ; CORE_ID, NUM_CORES
        bne.u32 r13, 0, f10
        bne.u32 r14, 1, f11
        tld.u32 {r15}, [0x10013c], shape=(1,1), step=(0,0)       ; TLB_ENTRIES
        bne.u32 r15, 16, f12
        tld.u32 {r16}, [0x100178], shape=(1,1), step=(0,0)       ; DMA_ENGINE = 0 % 16
        bne.u32 r16, 0, f13
        write.u32 [0x100100], 0x01002000                         ; ignored: RUNNING
        write.u32 [0x2805000000], 0x5555
        halt
f1:     write.u32 [0x2805000000], 0x00013333
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
f3:     write.u32 [0x2805000000], 0x00033333
        halt
f4:     write.u32 [0x2805000000], 0x00043333
        halt
f5:     write.u32 [0x2805000000], 0x00053333
        halt
f6:     write.u32 [0x2805000000], 0x00063333
        halt
f7:     write.u32 [0x2805000000], 0x00073333
        halt
f8:     write.u32 [0x2805000000], 0x00083333
        halt
f9:     write.u32 [0x2805000000], 0x00093333
        halt
f10:     write.u32 [0x2805000000], 0x000a3333
        halt
f11:     write.u32 [0x2805000000], 0x000b3333
        halt
f12:     write.u32 [0x2805000000], 0x000c3333
        halt
f13:     write.u32 [0x2805000000], 0x000d3333
        halt
        .org 0x01002000
        write.u32 [0x2805000000], 0x00633333                     ; PC write took effect
        halt
