; Multi-round solo slices beside a core blocked in a wait (softmmu/sched.c,
; blocked_waiting): its retries would fail until a semaphore or event it
; reads changes, so they are left out, and the slice ends with the round of
; any such change.  Worked out by hand (Q = 64, one instruction per cycle;
; cycle c of a core is its VTIME c while it runs).
; Each core keeps running for rounds after its post, so only the change
; can end the slice.
; Part 1: core 0 blocks at c = 2 on sem 5, which core 1 posts at c = 203
; (round 3) after a 100-iteration loop: core 0 comes first in id order, so
; it resumes in round 4: the wait retires at c = 256, VTIME read 257.
; Part 2: core 1 loops on (c = 204..404) and blocks on sem 6 at c = 405;
; core 0 posts it at c = 460 (round 7) after its own loop and loops on:
; core 1 comes after core 0, so it resumes in round 7 itself, and its VTIME
; read sees 448 + 1 = 449.
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, core1
        nop wait(sem5 >= 1)
        tld.u32 {r2}, [0x100170], shape=(1,1), step=(0,0)     ; VTIME
        bne.u32 r2, 257, f1
        mov.u32 {r8}, {100}
spin0:  sub.u32 r8, r8, 1
        bne.u32 r8, 0, spin0
        nop post(sem6++)
        mov.u32 {r8}, {100}
more0:  sub.u32 r8, r8, 1
        bne.u32 r8, 0, more0
        halt
core1:  mov.u32 {r8}, {100}
spin1:  sub.u32 r8, r8, 1
        bne.u32 r8, 0, spin1
        nop post(sem5++)
        mov.u32 {r8}, {100}
more1:  sub.u32 r8, r8, 1
        bne.u32 r8, 0, more1
        nop wait(sem6 >= 1)
        tld.u32 {r2}, [0x100170], shape=(1,1), step=(0,0)     ; VTIME
        bne.u32 r2, 449, f2
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
