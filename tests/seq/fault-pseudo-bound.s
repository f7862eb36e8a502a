; The same pseudo with var 5 bound executes as a TensorLoad at binding + 4.
; args: -bind 5=0x02000000 -device loader,file=@IMAGE@
        .data
        .org 0x02000004
        .word 0x1234
        .text
        .org 0x01000000
        ptld.u32 {r1}, var(5)+4, shape=(1,1), step=(0,0)
        bne.u32 r1, 0x1234, fail
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
