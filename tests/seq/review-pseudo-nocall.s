; pcall of a name with no symbol stays unlowered (the loader warns) and
; faults when reached: PSEUDO_UNLOWERED info=PSEUDO_FUNCTION_CALL, addr 0.
; exit: 132
; stderr: nxemu: fault: core=0 code=PSEUDO_UNLOWERED(3) info=PSEUDO_FUNCTION_CALL pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:  pcall "no_such_function"
        halt
