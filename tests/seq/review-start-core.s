; Starting a core that received no entry point (machine.md §3, §11.6): core
; 1 stays in RESET; core 0 writes its PC through the global alias (allowed
; in RESET) and RUN; core 1 posts sem1, which core 0 waits for.
; args: -smp seq=2 -device loader,file=@IMAGE@
        .org 0x01000000
start:  write.u32 [0x2803001100], 0x01001000
        write.u32 [0x280300110c], 1
        nop wait(sem1 >= 1)
        tld.u32 {r1}, [0x2803001108], shape=(1,1), step=(0,0)
        bne.u32 r1, 3, f1                       ; core 1 HALTED after its halt
        write.u32 [0x2805000000], 0x5555
        halt
f1:     write.u32 [0x2805000000], 0x00013333
        halt
        .org 0x01001000
        nop post(sem1++)
        halt
