; A pseudo-band opcode without a name (0xC1) reaching the core:
; PSEUDO_UNLOWERED, info=0xc1 (machine.md §12.1 `0xNN`), FAULT_ADDR 0.
; exit: 132
; stderr-prefix: nxemu: fault: core=0 code=PSEUDO_UNLOWERED(3) info=0x
; stderr-contains: pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:  .rec c1 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
