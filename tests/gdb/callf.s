; gdb test image loaded as gdb's symbol file (docs/gdb.rst, "Symbols"):
; start calls twice three times; twice adds 2 to r2 and 1 to r3 and
; returns through the link r63:r62 (sequencer.md §8.8).  The labels inside
; the two declared functions stay labels (STT_NOTYPE).
        .org 0x01000000
        .type start, @function
start:  mov.u32 {r1}, {0}                       ; 0x1000000
loop:   add.u32 r1, r1, 1                       ; 0x1000040
        call twice                              ; 0x1000080
        blt.u32 r1, 3, loop                     ; 0x10000c0
        write.u32 [0x2805000000], 0x5555        ; 0x1000100: FINISHER PASS
        halt                                    ; 0x1000140
        .org 0x01001000
        .type twice, @function
twice:  add.u32 r2, r2, 2                       ; 0x1001000
again:  add.u32 r3, r3, 1                       ; 0x1001040
        b r63:r62                               ; 0x1001080
