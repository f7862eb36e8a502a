; Image for the viewer test (tests/e2e/test_viewer_panels.py): launches the kernel of
; viewer-tpc4.tpc.s (loaded at 0x100000) on TPCs 0..3, one after another without
; waiting, each storing into its own tensor 1 (0x01100000 + t * 0x1000), completion
; sem5 += 1; waits for all four, then passes through the test device.
        .text
        .org 0x01000000
        ; TPC 0 (window 0x28_0400_0000 + 0 * 0x10000, docs/machine.rst): KERNEL_BASE,
        ; tensor 1 descriptor, SRF0 = 40, completion sem5 += 1, EXECUTE
        write.u32 [0x2804000788], 0x00100000
        write.u32 [0x280400078c], 0
        write.u32 [0x2804000438], 0x01100000
        write.u32 [0x2804000444], 0x00000102
        write.u32 [0x2804000448], 64
        write.u32 [0x280400044c], 1
        write.u32 [0x28040007c0], 40
        write.u32 [0x2804001000], 0x80000005
        write.u32 [0x2804001008], 1
        ; TPC 1 (window 0x28_0400_0000 + 1 * 0x10000, docs/machine.rst): KERNEL_BASE,
        ; tensor 1 descriptor, SRF0 = 41, completion sem5 += 1, EXECUTE
        write.u32 [0x2804010788], 0x00100000
        write.u32 [0x280401078c], 0
        write.u32 [0x2804010438], 0x01101000
        write.u32 [0x2804010444], 0x00000102
        write.u32 [0x2804010448], 64
        write.u32 [0x280401044c], 1
        write.u32 [0x28040107c0], 41
        write.u32 [0x2804011000], 0x80000005
        write.u32 [0x2804011008], 1
        ; TPC 2 (window 0x28_0400_0000 + 2 * 0x10000, docs/machine.rst): KERNEL_BASE,
        ; tensor 1 descriptor, SRF0 = 42, completion sem5 += 1, EXECUTE
        write.u32 [0x2804020788], 0x00100000
        write.u32 [0x280402078c], 0
        write.u32 [0x2804020438], 0x01102000
        write.u32 [0x2804020444], 0x00000102
        write.u32 [0x2804020448], 64
        write.u32 [0x280402044c], 1
        write.u32 [0x28040207c0], 42
        write.u32 [0x2804021000], 0x80000005
        write.u32 [0x2804021008], 1
        ; TPC 3 (window 0x28_0400_0000 + 3 * 0x10000, docs/machine.rst): KERNEL_BASE,
        ; tensor 1 descriptor, SRF0 = 43, completion sem5 += 1, EXECUTE
        write.u32 [0x2804030788], 0x00100000
        write.u32 [0x280403078c], 0
        write.u32 [0x2804030438], 0x01103000
        write.u32 [0x2804030444], 0x00000102
        write.u32 [0x2804030448], 64
        write.u32 [0x280403044c], 1
        write.u32 [0x28040307c0], 43
        write.u32 [0x2804031000], 0x80000005
        write.u32 [0x2804031008], 1
        nop wait(sem5 >= 4)
        write.u32 [0x2805000000], 0x5555
        halt
