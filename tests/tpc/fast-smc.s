// Fast-path review (tpc-fastreview): a kernel that rewrites its own code
// with a fast st_tnsr (tpc.md §6.1, machine.md: code is fetched as it is in
// memory; the decode cache must notice the write even though the fast path
// stores straight into the host span).  Tensor 0 maps the kernel
// (KERNEL_BASE 0x100000) as 256 i32 words.  Block A (0x100..0x1FF, 8
// bundles) adds 1 to S5; block B (0x300..0x3FF, after the HALT, never
// executed) adds 100.  Each of the two loop iterations runs block A, then
// copies B over A with ld_tnsr/st_tnsr (fast form: c0 = 0xC0 and 0x40,
// wholly in bounds and in HBM).  S5 = 1 + 100 = 101 (a stale decode of
// block A would give 2).
//@ tensor 0 0x100000 2 256
//@ expect S5=101 S32=2
nop; set_indx I2, b00001, 0xC0; nop; nop
nop; set_indx I3, b00001, 0x40; nop; nop
loop 0x0, 0x2, 1, <, End
nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; add.i32 S5, S5, 0x1; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; nop; st_tnsr 0x0, I3, V1
End:
halt
nop
nop
nop
nop
nop
nop; add.i32 S5, S5, 0x64; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
nop; nop; nop; nop
