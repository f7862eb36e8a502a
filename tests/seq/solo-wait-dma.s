; A wait a DMA completion satisfies while another core runs multi-round solo
; slices (softmmu/sched.c, blocked_waiting and solo_rounds).  Core 0 issues
; an 8 KiB copy (cost 160) at c = 2: the engine idles 2 cycles, spends 62
; and 64 in rounds 0 and 1 and completes at T = 162 in round 2.  Core 0's
; wait (c = 3) resumes in round 3: it retires at c = 192 and the VTIME read
; sees 193; it then posts sem 7.  Core 1 meanwhile runs a 200-iteration loop
; (c = 3..402) across those rounds, finds sem 7 posted at c = 403 and reads
; VTIME 404 at c = 404.
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)     ; CORE_ID
        bne.u32 r1, 0, core1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=8192 dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=8192 sem=9 inc=1
        nop wait(sem9 >= 1)
        tld.u32 {r2}, [0x100170], shape=(1,1), step=(0,0)     ; VTIME
        bne.u32 r2, 193, f1
        nop post(sem7++)
        halt
core1:  mov.u32 {r8}, {200}
spin1:  sub.u32 r8, r8, 1
        bne.u32 r8, 0, spin1
        nop wait(sem7 >= 1)
        tld.u32 {r2}, [0x100170], shape=(1,1), step=(0,0)     ; VTIME
        bne.u32 r2, 404, f2
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
