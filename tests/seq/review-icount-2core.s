; -icount-limit with two cores (machine.md §8): core 0 retires 3
; instructions (tld, bne, halt), core 1 then retires the 4th and 5th; the
; limit line shows the VTIME of core 1 (the N-th instruction's core) just
; after the 5th retired: 2 cycles into its slice of round 0.
; args: -icount-limit 5 -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
; exit: 123
; stderr: nxemu: limit: icount=5 vtime=2
        .org 0x01000000
start:  tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)
        bne.u32 r1, 0, core1
        halt
core1:  nop
        nop
        halt
