; Run control between cores (machine.md §3): HALT leaves PC after the HALT and
; CONTROL.RUN resumes there; CONTROL.STOP of a BLOCKED core abandons the wait,
; state HALTED with PC = the blocked instruction, and RUN fetches it again.
; Core 1 is driven by core 0 through its global NX alias (0x2803001000).
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)      ; CORE_ID
        bne.u32 r1, 0, core1
        nop wait(sem1 >= 1)                     ; core 1 halted once
        write.u32 [0x280300110c], 1             ; RUN core 1: resumes after its halt
        nop wait(sem4 >= 1)                     ; core 1 is about to block on sem9
        write.u32 [0x280300110c], 2             ; STOP it
        tld.u32 {r2, r3, r4}, [0x2803001100], shape=(3,1), step=(1,0) ; PC lo, PC hi, STATUS
        bne.u32 r2, 0x01001100, f1              ; the blocked instruction
        and.u32 r4, r4, 0xf0f
        bne.u32 r4, 3, f2                       ; HALTED, no block reason
        write.u32 [0x2802701424], 1             ; SEM_SET[9] = 1
        write.u32 [0x280300110c], 1             ; RUN: refetches the wait, proceeds
        nop wait(sem3 >= 1)
        tld.u32 {r5}, [0x2802701008], shape=(1,1), step=(0,0)
        bne.u32 r5, 1, f3                       ; sem2 posted once, after the resume
        write.u32 [0x2805000000], 0x5555
        halt
f1:     write.u32 [0x2805000000], 0x00013333
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
f3:     write.u32 [0x2805000000], 0x00033333
        halt
        .org 0x01001000
core1:  nop post(sem1++)
        halt
        nop post(sem2++)
        nop post(sem4++)
        .org 0x01001100
        nop wait(sem9 >= 1)
        nop post(sem3++)
        halt
