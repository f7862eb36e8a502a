; A load from an unmapped PA (a TPC window with no TPC behind it, -smp tpc=0)
; is a BUS_ERROR at the Neuron address.
; args: -smp seq=1,tpc=0 -device loader,file=@IMAGE@
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000000 addr=0x0000002804000000
        .org 0x01000000
        tld.u32 {r1}, [0x2804000000], shape=(1,1), step=(0,0)
        halt
