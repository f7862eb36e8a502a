; MOVE source specifier 130 (only 0..63, 128, 129): ctrl_mv_valid_register.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=ctrl_mv_valid_register pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a7 10 00 00 00 00 00 00 00 00 00 00 01 09 00 00 82 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
