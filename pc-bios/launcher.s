; nxemu reference TPC launcher (machine.md §6): runs one kernel on TPCs 0..N-1.
;
; Loaded at 0x01000000 for core 0; reads its parameter block at PA 0x01F00000
; (layout in machine.md §6 and docs/tpc-run.rst).  FAIL codes: 2 bad magic,
; 3 bad N (0, or more than the machine's TPCs), 4 another malformed field
; (T > 16, SRF count > 32, semaphore > 255).
;
; No register holds the number of TPCs, so the launcher counts the `tpc`
; children of /tpcs in the in-memory device tree (DTB_ADDR, machine.md §10),
; exactly the nodes the board builds TPCs from.  Without an in-memory DTB
; (DTB_ADDR = 0) it falls back to reading STATUS of TPC N-1 before launching
; anything: an absent TPC's window is unmapped, so a too large N then ends the
; run with BUS_ERROR (exit 135) instead of FAIL 3.
;
; Registers: r1 magic, r2 N, r3/r4 kernel PA lo/hi, r5 KERNEL_SIZE,
; r6 KERNEL_CONFIG, r7 semaphore, r8 T, r9..r18 B0,S0,..,B4,S4, r19 SRF count,
; r22 number of TPCs, r62/r63 link register of `call`.
        .text
        .org 0x01000000
start:  tld.u32 {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20}, [0x01f00000], shape=(20,1), step=(1,0)
        bne.u32 r1, 0x4c50584e, fail2
        beq.u32 r2, 0, fail3
        bgt.u32 r2, 64, fail3
        bgt.u32 r8, 16, fail4
        bgt.u32 r19, 32, fail4
        bgt.u32 r7, 255, fail4
        mov.u32 r36, 0x28                       ; high word of every MMIO address
        ; count the TPC nodes of the in-memory DTB (big-endian, FDT format)
        tld.u32 {r40, r41}, [0x100168], shape=(2,1), step=(1,0)  ; DTB_ADDR
        or.u32 r42, r40, r41
        beq.u32 r42, 0, probe
        add.u32 r42, r40, 0                     ; DTB start (low word)
        call rd32
        bne.u32 r43, 0xd00dfeed, probe
        add.u32 r40, r42, 8
        call rd32                               ; off_dt_struct
        add.u32 r55, r43, 0
        add.u32 r40, r42, 36
        call rd32                               ; size_dt_struct
        add.u32 r40, r42, r55                   ; walk pointer
        add.u32 r55, r40, r43                   ; end of the structure block
        mov.u32 {r48, r49, r22}, {0, 0, 0}      ; depth, inside /tpcs, count
tok:    bge.u32 r40, r55, counted
        call rd32
        beq.u32 r43, 1, begin
        beq.u32 r43, 2, endnode
        beq.u32 r43, 3, prop
        beq.u32 r43, 4, tok
        b counted                               ; FDT_END (or garbage)
begin:  tld.u8 {r50, r51, r52, r53, r54}, [r41:r40], shape=(5,1), step=(1,0)
        bne.u32 r48, 1, begin2
        mov.u32 r49, 0                          ; a child of /: is it "tpcs"?
        bne.u32 r50, 0x74, skipnm
        bne.u32 r51, 0x70, skipnm
        bne.u32 r52, 0x63, skipnm
        bne.u32 r53, 0x73, skipnm
        bne.u32 r54, 0, skipnm
        mov.u32 r49, 1
        b skipnm
begin2: bne.u32 r48, 2, skipnm                  ; a child of /tpcs named tpc or tpc@...
        beq.u32 r49, 0, skipnm
        bne.u32 r50, 0x74, skipnm
        bne.u32 r51, 0x70, skipnm
        bne.u32 r52, 0x63, skipnm
        beq.u32 r53, 0x40, istpc
        bne.u32 r53, 0, skipnm
istpc:  add.u32 r22, r22, 1
skipnm: tld.u8 {r50}, [r41:r40], shape=(1,1), step=(0,0)
        add.u32 r40, r40, 1
        bne.u32 r50, 0, skipnm
        add.u32 r40, r40, 3
        and.u32 r40, r40, 0xfffffffc
        add.u32 r48, r48, 1
        b tok
endnode: sub.u32 r48, r48, 1
        b tok
prop:   call rd32                               ; value length
        add.u32 r40, r40, 4                     ; skip the name offset
        add.u32 r40, r40, r43
        add.u32 r40, r40, 3
        and.u32 r40, r40, 0xfffffffc
        b tok
counted: bgt.u32 r2, r22, fail3
        b dims
        ; no in-memory DTB: probe TPC N-1 (BUS_ERROR if the machine has fewer TPCs)
probe:  sub.u32 r21, r2, 1
        lshl.u32 r21, r21, 16
        add.u32 r21, r21, 0x0400100c
        tld.u32 {r23}, [r36:r21], shape=(1,1), step=(0,0)
        ; split dimension d (r24), its base (r25) and size (r26)
dims:   bgt.u32 r18, 1, dim4
        bgt.u32 r16, 1, dim3
        bgt.u32 r14, 1, dim2
        bgt.u32 r12, 1, dim1
        mov.u32 r24, 0
        add.u32 r25, r9, 0
        add.u32 r26, r10, 0
        b split
dim1:   mov.u32 r24, 1
        add.u32 r25, r11, 0
        add.u32 r26, r12, 0
        b split
dim2:   mov.u32 r24, 2
        add.u32 r25, r13, 0
        add.u32 r26, r14, 0
        b split
dim3:   mov.u32 r24, 3
        add.u32 r25, r15, 0
        add.u32 r26, r16, 0
        b split
dim4:   mov.u32 r24, 4
        add.u32 r25, r17, 0
        add.u32 r26, r18, 0
split:  bne.u32 r26, 0, sizeok
        mov.u32 r26, 1                          ; size 0 = unused, counts as 1
sizeok: div.u32 r27, r26, r2                    ; P = ceil(S_d / N) without overflow
        mod.u32 r28, r26, r2
        ne.u32 r28, r28, 0
        add.u32 r27, r27, r28
        lshl.u32 r29, r24, 3                    ; TID_BASE_DIM_d offset
        add.u32 r29, r29, 0x790
        mov.u32 {r30, r31, r32}, {0, 0, 0}      ; i, parts launched, i*P
part:   bge.u32 r30, r2, wait
        bge.u32 r32, r26, wait
        sub.u32 r56, r26, r32                   ; S_d - i*P
        min.u32 r33, r56, r27                   ; part size
        add.u32 r34, r25, r32                   ; part base
        lshl.u32 r35, r30, 16                   ; TPC i window (low word)
        add.u32 r35, r35, 0x04000000
        ; tensor descriptors 0..T-1
        mov.u32 {r37, r38, r39}, {0, 0x01f000d0, 0}
        add.u32 r40, r35, 0x400
desc:   bge.u32 r37, r8, descok
        tld.u32 {r41, r42, r43, r44, r45, r46, r47, r48, r49, r50, r51, r52, r53, r54}, [r39:r38], shape=(14,1), step=(1,0)
        tst.u32 [r36:r40], {r41, r42, r43, r44, r45, r46, r47, r48, r49, r50, r51, r52, r53, r54}, shape=(14,1), step=(1,0)
        add.u32 r37, r37, 1
        add.u32 r38, r38, 0x38
        add.u32 r40, r40, 0x38
        b desc
descok: add.u32 r40, r35, 0x788                 ; KERNEL_BASE_ADDRESS_LOW/_HIGH
        tst.u32 [r36:r40], {r3, r4}, shape=(2,1), step=(1,0)
        add.u32 r40, r35, 0x1028                ; KERNEL_SIZE (a KERNEL_BASE write clears it)
        write.u32 [r36:r40], r5
        add.u32 r40, r35, 0x790                 ; TID base/size, whole space
        tst.u32 [r36:r40], {r9, r10, r11, r12, r13, r14, r15, r16, r17, r18}, shape=(10,1), step=(1,0)
        add.u32 r40, r35, r29                   ; this part of dim d
        tst.u32 [r36:r40], {r34, r33}, shape=(2,1), step=(1,0)
        add.u32 r40, r35, 0x7b8                 ; KERNEL_CONFIG
        write.u32 [r36:r40], r6
        ; KERNEL_SRF_0 .. KERNEL_SRF_(count-1)
        mov.u32 {r37, r38, r39}, {0, 0x01f00050, 0}
        add.u32 r40, r35, 0x7c0
srf:    bge.u32 r37, r19, srfok
        tld.u32 {r41}, [r39:r38], shape=(1,1), step=(0,0)
        write.u32 [r36:r40], r41
        add.u32 r37, r37, 1
        add.u32 r38, r38, 4
        add.u32 r40, r40, 4
        b srf
srfok:  or.u32 r41, r7, 0x80000000
        add.u32 r40, r35, 0x1000                ; COMPLETION_SEM
        write.u32 [r36:r40], r41
        add.u32 r40, r35, 0x1004                ; COMPLETION_INC
        write.u32 [r36:r40], 1
        add.u32 r40, r35, 0x1008                ; EXECUTE
        write.u32 [r36:r40], 1
        add.u32 r31, r31, 1
        add.u32 r30, r30, 1
        ble.u32 r56, r27, wait                  ; that was the last part
        add.u32 r32, r32, r27
        b part
        ; Wait for sem >= parts.  A wait names its semaphore in the record
        ; while the index is data here, so patch the index byte (+5) of the
        ; `sleep` record first (the store drops the decoded copy), then block
        ; on it: the core costs nothing while it waits, and a kernel that
        ; never completes is reported as a deadlock instead of spinning.
wait:   mov.u32 {r58, r59}, {pclo, pchi}        ; address of this record
        add.u32 r58, r58, 0xc5                  ; sleep (3 records on) + 5
        tst.u8 [r59:r58], {r7}, shape=(1,1), step=(0,0)
sleep:  nop wait(sem0 >= r31)
        lshl.u32 r58, r7, 2
        add.u32 r59, r58, 0x02701400            ; SEM_SET[sem]
        write.u32 [r36:r59], 0
        write.u32 [0x2805000000], 0x5555
        halt
fail2:  write.u32 [0x2805000000], 0x00023333
        halt
fail3:  write.u32 [0x2805000000], 0x00033333
        halt
fail4:  write.u32 [0x2805000000], 0x00043333
        halt

; r43 = big-endian u32 at [r41:r40]; r40 += 4.  Returns through r63:r62.
rd32:   tld.u8 {r44, r45, r46, r47}, [r41:r40], shape=(4,1), step=(1,0)
        lshl.u32 r43, r44, 24
        lshl.u32 r45, r45, 16
        or.u32 r43, r43, r45
        lshl.u32 r46, r46, 8
        or.u32 r43, r43, r46
        or.u32 r43, r43, r47
        add.u32 r40, r40, 4
        b r63:r62
