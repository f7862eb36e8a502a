// MISALIGNED before VLM_RANGE (tpc.md §10 item 10): 0x4080 is both beyond
// the small VLM and not 256-aligned.
//@ cfg 0x7B8=1
//@ expect fault 5 0x0 0x4080
ld_l_v V1, 0x4080; nop; nop; nop
halt
nop
nop
nop
