; SBUF partition 0 is populated up to 0x2000030000 (192 KiB of its 256 KiB
; pitch): a u32 load of two elements from 0x200002fffc stays in one window
; but its second element is unmapped: BUS_ERROR with FAULT_ADDR = that
; element, the first failing one in walk order (sequencer.md §8.9).
; exit: 135
; stderr: nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000000 addr=0x0000002000030000
        .org 0x01000000
start:  tld.u32 {r1, r2}, [0x200002fffc], shape=(2,1), step=(1,0)
        halt
