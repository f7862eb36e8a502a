; DMA_MEMCPY source n0 = 0: dma_num_elem.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=dma_num_elem pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec b8 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 00 00 00 00 01 00 00 00 00 00 00 00 00 00 01 00 04 00 00 00 00 00 00 03 00 00 00 00 01 00 00 00 00 00 00 00 00 00 01 00 04 00 00 00
        halt
