; CONTROL written by the core itself (machine.md §3): RESET + RUN in one
; write (applied RESET first, then RUN) after the write retires: registers
; return to 0 and the core restarts at ENTRY.  sem1 (machine-wide, not part
; of the core) counts the passes.
        .org 0x01000000
start:  nop post.r(sem1++)
        tld.u32 {r1}, [0x2802701004], shape=(1,1), step=(0,0)
        beq.u32 r1, 2, second
        mov.u32 {r5}, {0x55}
        write.u32 [0x10010c], 5
        write.u32 [0x2805000000], 0x00013333    ; must not run
        halt
second: bne.u32 r5, 0, f2                       ; reset cleared it
        write.u32 [0x10010c], 2                 ; STOP itself: HALTED, normal end
        write.u32 [0x2805000000], 0x00033333    ; must not run
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
