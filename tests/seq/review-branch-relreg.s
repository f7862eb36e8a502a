; REL_REGISTER target = PC + sext32(R[lo]) (sequencer.md §8.8): R14 =
; 0xffffff80 jumps 128 bytes back from the branch itself.  The loop body
; runs twice; a zero-extended offset would leave the 16 MiB window.
        .org 0x01000000
start:  mov.u32 {r1, r14}, {0, 0xffffff80}
        add.u32 r1, r1, 1                       ; 0x01000040
        bne.u32 r1, 1, .+128                    ; second pass -> 0x01000100
        b .+r14                                 ; 0x010000c0 -> 0x01000040
        bne.u32 r1, 2, f1
        write.u32 [0x2805000000], 0x5555
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
