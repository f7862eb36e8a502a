; Image for -machine poison=on (tests/e2e/test_viewer.py --poison).  Each
; instruction is one 64-byte record from 0x01000000 (sequencer.md §2), so
; the pcs in the expected warnings are known:
;   0x01000000  read SBUF partition 5 before any write     -> warning
;   0x01000040  write SBUF partition 6 (4 words)
;   0x01000080  read them back                             -> silent
;   0x010000c0  read partition 5 again                     -> silent (reported once)
;   0x01000100  read HBM 0x03000000 and 0x03000004, never written
;               -> one warning per element read (two lines, size 4 each)
;   0x01000140  read 0x02000000: loaded .data              -> silent
; then PASS through the test device.
        .data
        .org 0x02000000
        .word 0xcafef00d
        .text
        .org 0x01000000
        tld.u32 {r1}, [0x2000140000], shape=(1,1), step=(0,0)
        tst.u32 [0x2000180000], #{1, 2, 3, 4}, shape=(4,1), step=(1,0)
        tld.u32 {r2, r3, r4, r5}, [0x2000180000], shape=(4,1), step=(1,0)
        tld.u32 {r1}, [0x2000140000], shape=(1,1), step=(0,0)
        tld.u32 {r6, r7}, [0x03000000], shape=(2,1), step=(1,0)
        tld.u32 {r8}, [0x02000000], shape=(1,1), step=(0,0)
        write.u32 [0x2805000000], 0x5555
        halt
