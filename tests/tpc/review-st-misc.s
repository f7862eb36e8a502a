// Review of tpc.md §9 items 10 and 26 (store-slot parts left untested):
//  - st_tnsr_low / st_tnsr_high (§3.3): register bytes 0..127 / 128..255 go
//    to elements c[0]..c[0]+31 (the same elements for both); element 32 is
//    not written.
//  - st_l_v_low (§5.4): register bytes 0..127 to VLM a..a+127, a+128.. kept.
//  - ST_TNSR RMW max in f32 (§5.4.1, S29 = 7 | 3 << 4 = 0x37): max(mem, 0.5)
//    lane by lane: 1.0, 0.5, NaN operand -> canonical 0x7FC00000 (§5.0.4),
//    max(-0.0, 0.5) = 0.5; lanes past size 4 culled.
//  - aso, aso, aso dec: SEMAPHORE (0x908) 10 -> 11 (§5.4).
//  - cache_invalidate, cache_flush: no effect, no fault.
//@ tensor 0 0x200000 2 64
//@ tensor 1 0x201000 2 64
//@ tensor 2 0x202000 2 4
//@ mem 0x200000 i32 -1 -1
//@ mem 0x200080 i32 -1 -1
//@ mem 0x201000 i32 -1 -1
//@ mem 0x201080 i32 -1 -1
//@ mem 0x202000 u32 0x3F800000 0xC0000000 0x7FC01234 0x80000000 0x40000000
//@ cfg 0x908=10
//@ srf 1=0x100 5=0x3F000000 6=7 29=0x37
//@ expect mem 0x200000 i32 0 1
//@ expect mem 0x20007C i32 31 -1 -1
//@ expect mem 0x201000 i32 32 33
//@ expect mem 0x20107C i32 63 -1 -1
//@ expect mem 0x202000 u32 0x3F800000 0x3F000000 0x7FC00000 0x3F000000 0x40000000
//@ expect V5.i32[0]=0 V5.i32[31]=31 V5.i32[32]=7 V5.i32[63]=7
//@ expect S9=11
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; mov.f32 V2, S5; nop
nop; nop; mov.i32 V3, S6; nop
nop; nop; nop; st_tnsr_low 0x0, I2, V1
nop; nop; nop; st_tnsr_high 0x1, I2, V1
nop; nop; nop; st_l_v S1, V3
nop; nop; nop; st_l_v_low S1, V1
ld_l_v V5, S1; nop; nop; nop
nop; nop; nop; st_tnsr 0x2, I2, V2, S29
nop; nop; nop; aso
nop; nop; nop; aso
nop; nop; nop; aso dec
nop; nop; nop; cache_invalidate
nop; nop; nop; cache_flush
ld_l mmio S9, 0x908; nop; nop; nop
halt
nop
nop
nop
