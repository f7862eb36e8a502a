; gdb test image for sequencer 1 (cpu-num=1): stores 42 to Neuron 0x2000100
; (PA 0x2000100: windows map to PA unchanged, machine.rst), a word the
; tests watch from sequencer 0's inferior, then halts.
        .org 0x01100000
start:  mov.u32 {r3}, {42}                                      ; 0x1100000
        tst.u32 [0x02000100], {r3}, shape=(1,1), step=(0,0)     ; 0x1100040
        halt                                                    ; 0x1100080
