; Checklist 10: lowering keeps bytes 2..11 (events and debug bytes): the
; lowered TensorLoad waits on sem2 and posts sem3 (its post.r fires);
; 0xD3 pcall / 0xD2 pret round trip through R62/R63 (link = the pcall's
; address + 64); 0xDF sub-op 1 halts (the record after it would FAIL 9).
; args: -bind 5=0x02000000 -device loader,file=@IMAGE@
        .data
        .org 0x02000004
        .word 0x1234
        .text
        .org 0x01000000
start:  nop post(sem2++)
        ptld.u32 {r1}, var(5)+4, shape=(1,1), step=(0,0) wait(sem2 >= 1) post.r(sem3++)
        tld.u32 {r2}, [0x280270100c], shape=(1,1), step=(0,0)
        bne.u32 r1, 0x1234, f1
        bne.u32 r2, 1, f2
        mov.u32 {r3}, {0}
        pcall "func"                            ; at 0x01000180
        bne.u32 r3, 7, f3
        bne.u32 r62, 0x010001c0, f4
        bne.u32 r63, 0, f5
        pexit
        write.u32 [0x2805000000], 0x00093333
        halt
f1:     write.u32 [0x2805000000], 0x00013333
        halt
f2:     write.u32 [0x2805000000], 0x00023333
        halt
f3:     write.u32 [0x2805000000], 0x00033333
        halt
f4:     write.u32 [0x2805000000], 0x00043333
        halt
f5:     write.u32 [0x2805000000], 0x00053333
        halt
        .org 0x01001000
        .type func, @function                   ; pcall resolves STT_FUNC only
func:   mov.u32 {r3}, {7}
        pret
