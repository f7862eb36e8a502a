; mem_2d elements must stay in one aligned 16 MiB window (checklist item 7):
; u32 at 0x01fffffc with n0 = 2 crosses into window 2.  The post.r update
; of the faulting instruction is not applied (sem1 stays 0; nothing shows it
; here but the fault line, the unit test checks the semaphore).
; exit: 139
; stderr: nxemu: fault: core=0 code=WINDOW_CROSSING(5) info=0 pc=0x0000000001000000 addr=0x0000000001fffffc
        .org 0x01000000
        tld.u32 {r1, r2}, [0x01fffffc], shape=(2,1), step=(1,0) post.r(sem1++)
        halt
