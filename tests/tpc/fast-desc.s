// Fast-path review (tpc-fastreview): descriptors rewritten by the kernel
// with `st_l mmio` are seen from the next bundle (tpc.md §3.1, §6.1) by the
// cached descriptor and the fast path.  Tensor 0: i32, 64 elements at
// 0x200000 (1, 2), padding 0xAB.
//  - a 2-iteration loop loads vector 0 and accumulates it into V2, then
//    moves BASE_ADDR (kernel view 0x400) to 0x200100 (10, 20): the same
//    decoded ld_tnsr bundle reads the new base the second time,
//    V2 = 11, 22, 0...
//  - st_l mmio of DIM_0_SIZE = 1 in the bundle of a load: that load still
//    sees 64 elements (V3 = 10, 20, 0), the next one only one element
//    (V4 = 10, then padding 0xAB);
//  - DATA_TYPE = 3 (TENSOR_CONFIG = 0x103): the next ld_tnsr faults
//    TENSOR_CONFIG (9) at PC 0x120 (§6.6) and V5 keeps its value.
//@ tensor 0 0x200000 2 64 pad=0xAB
//@ mem 0x200000 i32 1 2
//@ mem 0x200100 i32 10 20
//@ srf 1=0x400 2=0x200100 3=0x410 4=1 5=0x40C 6=0x103
//@ expect V2.i32[0]=11 V2.i32[1]=22 V2.i32[2]=0 V2.i32[63]=0
//@ expect V3.i32[0]=10 V3.i32[1]=20 V3.i32[2]=0 V3.i32[63]=0
//@ expect V4.i32[0]=10 V4.i32[1]=0xAB V4.i32[63]=0xAB
//@ expect V5.i32[*]=7 S32=2
//@ expect fault 9 0x120 0
nop; nop; mov.i32 V5, 0x7; nop
loop 0x0, 0x2, 1, <, End
nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.i32 V2, V2, V1; nop
nop; nop; nop; st_l mmio S1, S2
End:
ld_tnsr V3, 0x0, I2; nop; nop; st_l mmio S3, S4
ld_tnsr V4, 0x0, I2; nop; nop; nop
nop; nop; nop; st_l mmio S5, S6
ld_tnsr V5, 0x0, I2; nop; nop; nop
halt
nop
nop
nop
