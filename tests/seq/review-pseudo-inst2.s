; 0xDF sub-op 2 (LIBRARY_RELOAD_INDEX) is not lowered; reaching the core it
; raises PSEUDO_UNLOWERED with info=PSEUDO_INST/2 and FAULT_ADDR 0
; (sequencer.md §9, machine.md §12.1).
; exit: 132
; stderr: nxemu: fault: core=0 code=PSEUDO_UNLOWERED(3) info=PSEUDO_INST/2 pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:  .rec df 10 00 00 00 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
