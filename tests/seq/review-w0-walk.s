; mem_2d in window 0 (machine.md §12.2): the first element (R0) is in the NX
; block, the second (stride -1) at 0xffffc is not; BUS_ERROR with FAULT_ADDR
; = the first failing element in walk order, not the start.
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000000 addr=0x00000000000ffffc
        .org 0x01000000
start:  tld.u32 {r1, r2}, [0x100000], shape=(2,1), step=(-1,0)
        halt
