; Several FINISHER writes in one TensorStore (machine.md §12.4): the last in
; walk order decides (FAIL 7 after PASS), and the run ends after it.
; exit: 7
        .org 0x01000000
start:  tst.u32 [0x2805000000], #{0x5555, 0x00073333}, shape=(2,1), step=(0,0)
        write.u32 [0x2805000000], 0x5555
        halt
