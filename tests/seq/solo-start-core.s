; A lone core that starts another one (CONTROL.RUN) mid-round: the started
; core, with a higher id, runs in the same round (machine.md §8: sequencers in
; ascending id).  Core 0 runs alone from round 1 (core 1 halted in round 0),
; which nxemu runs as one solo slice; the RUN write must end that slice with
; its round so that core 1 still runs in it.
; Round 0: core 0 retires tld, bne, mov (cycles 0-2), then the loop's 200
; instructions (cycles 3-202); the RUN write is cycle 203, in round 3
; (T = 192).  Core 1 resumes after its HALT in round 3 with 0 cycles used:
; its VTIME read sees 192 (256 if it only ran in the next round).
; args: -smp seq=2 -device loader,file=@IMAGE@ -device loader,file=@IMAGE@,cpu-num=1
        .org 0x01000000
        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)      ; CORE_ID
        bne.u32 r1, 0, core1
        mov.u32 {r2}, {100}
loop:   sub.u32 r2, r2, 1
        bne.u32 r2, 0, loop
        write.u32 [0x280300110c], 1             ; RUN core 1
        halt
core1:  halt
        tld.u32 {r3}, [0x100170], shape=(1,1), step=(0,0)      ; VTIME (low word)
        bne.u32 r3, 192, fail
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
