; Test device details (machine.md §7, §12.11): FINISHER values other than
; 0x5555/0x3333 are ignored, a 2-byte write to FINISHER and a write to a
; reserved offset are ignored, FINISHER reads return 0, CONSOLE takes a
; 2-byte write and prints its low byte; the run ends with FAIL code 9, so an
; ignored write wrongly taken as PASS shows as status 0.
; exit: 9
; stdout: Bok
        .org 0x01000000
start:  write.u32 [0x2805000000], 0x00001234
        tst.u16 [0x2805000000], #{0x5555}, shape=(1,1), step=(0,0)
        write.u32 [0x2805000008], 0x5555
        tld.u32 {r1}, [0x2805000000], shape=(1,1), step=(0,0)
        bne.u32 r1, 0, f1
        tst.u16 [0x2805000004], #{0x4142}, shape=(1,1), step=(0,0)
        write.u32 [0x2805000004], 0x16f
        tst.u8 [0x2805000004], #{0x6b}, shape=(1,1), step=(0,0)
        write.u32 [0x2805000000], 0x00093333
        halt
        .include "lib/fail-table.inc"  ; f1..f40: FAIL exits
