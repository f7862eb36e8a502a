; DMA_MEMCPY moving 65535 x 2 x 65536 bytes (> 2^32) on both sides:
; dma_byte_count.
; (Review predicate variant, sequencer.md §8 and §10.)
; exit: 132
; stderr: nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=dma_byte_count pc=0x0000000001000000 addr=0x0000000000000000
        .org 0x01000000
start:
        .rec b8 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 00 00 00 00 01 00 00 00 00 00 00 00 ff ff 02 00 00 00 00 00 00 00 00 03 00 00 00 00 01 00 00 00 00 00 00 00 ff ff 02 00 00 00 00 00
        halt
