; STATUS and PC of another core (machine.md §3): core 0 blocks on DRAIN
; behind a 64 KiB copy (1056 cycles): STATUS = BLOCKED | reason DRAIN
; (0x202), PC = the DRAIN.  Later it blocks on a semaphore wait: 0x102.
; Core 2 was never started: STATUS 0 (RESET).  Core 1 checks and decides.
; args: -smp seq=3 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
start:  tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)
        bne.u32 r1, 0, core1
        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=0 dst=[0x03000000] dshape=(1,1) dstep=(0,0) desz=0 sem=9 inc=1
        drain                                   ; 0x010000c0
        nop post(sem5++)
        nop wait(sem6 >= 1)                     ; 0x01000140
        halt
        .org 0x01001000
core1:  tld.u32 {r2, r3, r4}, [0x2803000100], shape=(3,1), step=(1,0) ; PC lo, hi, STATUS
        bne.u32 r2, 0x010000c0, f1
        bne.u32 r4, 0x202, f2
        tld.u32 {r5}, [0x2803002108], shape=(1,1), step=(0,0)
        bne.u32 r5, 0, f3
        nop wait(sem5 >= 1)
        tld.u32 {r2, r3, r4}, [0x2803000100], shape=(3,1), step=(1,0)
        bne.u32 r2, 0x01000140, f4
        bne.u32 r4, 0x102, f5
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
