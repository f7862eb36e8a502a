; Test device (machine.md §7; checklist item 18): console bytes in order on
; stdout (WRITE and a TensorStore whose two elements hit one address, in walk
; order), then FAIL code 7 through a register WRITE.
; exit: 7
; stdout: OK\nhi
        .org 0x01000000
        write.u32 [0x2805000004], 0x4f
        write.u32 [0x2805000004], 0x4b
        write.u32 [0x2805000004], 0x0a
        tst.u8 [0x2805000004], #{0x68, 0x69}, shape=(2,1), step=(0,0)
        mov.u32 {r1}, {0x00073333}
        write.u32 [0x2805000000], r1
        write.u32 [0x2805000004], 0x21          ; never runs: the run ended
        halt
