; Checklist 10: a pseudo TensorLoad whose resolved address (binding + 2) is
; not u32-aligned still loads (the loader does not check alignment) and
; faults only when executed: INVALID_INSTRUCTION(valid_start_addr) at the
; lowered record, after the nop before it ran.
; args: -bind 5=0x02000000 -device loader,file=@IMAGE@
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=valid_start_addr pc=0x0000000001000040 addr=0x0000000000000000
        .org 0x01000000
start:  nop
        ptld.u32 {r1}, var(5)+2, shape=(1,1), step=(0,0)
        halt
