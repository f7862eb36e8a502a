; A program with data (README.rst, "A short tour"): sums the four u32 words
; that data.bin puts at 0x02000000, stores the sum at 0x02000010, prints
; "sum = N" and ends with PASS when N is 10, FAIL 1 otherwise (for example
; when run without data.bin).  No .data section, so that `nxemu-as --raw`
; gives the whole program; the data comes from a separate raw file:
;
;   build/tools/nxemu-as -o prog.elf examples/prog.s
;   build/nxemu -kernel prog.elf -device loader,file=examples/data.bin,addr=0x02000000
        .text
        .org 0x01000000
start:  tld.u32 {r8, r9, r10, r11}, [0x02000000], shape=(4,1), step=(1,0)
        add.u32 r1, r8, r9
        add.u32 r1, r1, r10
        add.u32 r1, r1, r11
        write.u32 [0x02000010], r1              ; the word README's watchpoint sees
        ; "sum = "
        tst.u8 [0x2805000004], #{0x73, 0x75, 0x6d, 0x20, 0x3d, 0x20}, shape=(6,1), step=(0,0)
        div.u32 r13, r1, 10                     ; tens (the sum is below 100 here)
        mod.u32 r14, r1, 10                     ; ones
        beq.u32 r13, 0, ones
        add.u32 r13, r13, 0x30
        write.u32 [0x2805000004], r13
ones:   add.u32 r14, r14, 0x30
        write.u32 [0x2805000004], r14
        write.u32 [0x2805000004], 0x0a
        bne.u32 r1, 10, fail
        write.u32 [0x2805000000], 0x5555        ; PASS: exit status 0
        halt
fail:   write.u32 [0x2805000000], 0x00013333    ; FAIL 1: exit status 1
        halt
