; A pseudo TensorLoad whose var_id has no binding stays unlowered (the loader
; warns) and faults when executed, FAULT_ADDR = var_id (checklist item 10).
; exit: 132
; stderr: nxemu: fault: core=0 code=PSEUDO_UNLOWERED(3) info=PSEUDO_TENSOR_LOAD pc=0x0000000001000000 addr=0x0000000000000005
        .org 0x01000000
        ptld.u32 {r1}, var(5)+4, shape=(1,1), step=(0,0)
        halt
