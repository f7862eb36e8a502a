; The same scatter with dupok: repeated destinations are updated in k order,
; so with op=add they accumulate (sequencer.md §8.11 value rules).
        .data
        .org 0x02000000
        .word 5, 7, 11
        .text
        .org 0x01000000
        tst.u32 [0x2000000100], #{1, 2, 1}, shape=(3,1), step=(1,0)
        dmai.scatter src=[0x02000000] sn=3 sstep=1 sesz=4 dst=[0x03000000] dn=3 dstep=1 desz=4 didx=0x100 sem=1 inc=1 op=add dt=u32 dupok
        tld.u32 {r1, r2}, [0x03000004], shape=(2,1), step=(1,0) wait(sem1 >= 1)
        bne.u32 r1, 16, fail                    ; 0 + 5 + 11
        bne.u32 r2, 7, fail
        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x00013333
        halt
