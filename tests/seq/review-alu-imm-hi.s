; A 32-bit ALU op whose immediate has bit 32 set: alu_imm_range.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=alu_imm_range pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a8 10 00 00 00 00 00 00 00 00 00 00 04 09 01 00 01 00 00 00 02 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
