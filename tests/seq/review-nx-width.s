; NX block accesses are 4 or 8 bytes (machine.md §3): a 1-byte TensorLoad of
; R0 in window 0 is a BUS_ERROR at the Neuron address (§12.2).
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000000 addr=0x0000000000100000
        .org 0x01000000
start:  tld.u8 {r1}, [0x100000], shape=(1,1), step=(0,0)
        halt
