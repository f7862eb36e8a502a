; The second instruction has an undefined opcode (0xb3): it faults at decode.
        .org 0x01000000
        mov.u32 {r1}, {1}
        .rec b3 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
