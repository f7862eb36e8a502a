; The NX alias of an absent core (n >= number of sequencers) is unmapped
; (machine.md §12.9): BUS_ERROR at the Neuron address.
; args: -smp seq=1 -device loader,file=@IMAGE@
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000000 addr=0x0000002803001100
        .org 0x01000000
start:  tld.u32 {r1}, [0x2803001100], shape=(1,1), step=(0,0)
        halt
