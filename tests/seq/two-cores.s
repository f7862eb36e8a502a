; Core 1 waits on a semaphore core 0 posts after a long loop: not a deadlock
; (checklist item 12); EVENT_SEMAPHORE needs both of its waits at once.
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, core1
        mov.u32 {r2}, {500}
loop:   sub.u32 r2, r2, 1
        bne.u32 r2, 0, loop
        nop post(sem5++)
        nop post(evt9 set)
        halt
core1:  evsem wait(sem5 >= 1) wait(evt9 set) post(sem6 += 4)
        tld.u32 {r3}, [0x2802701018], shape=(1,1), step=(0,0)
        bne.u32 r3, 4, fail
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
