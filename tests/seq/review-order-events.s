; Predicate order inside has_valid_neuron_events (§4.4): a wait mode 0x42
; (invalid) plus a nonzero wait value reports events_wait_mode (3) before
; events_unused_zero; the record also has a nonzero reserved byte.
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=events_wait_mode pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec a4 10 00 00 42 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
