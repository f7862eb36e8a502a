// LD_TNSR full / LOW / HIGH / PARTIAL (seed: v_*_ld_tnsr*): dim 0 beyond the
// tensor gives padding, LOW/HIGH fill one register half from the addressed
// elements, PARTIAL (offset 5, size-1 3 in S30) keeps the other lanes
// (tpc.md §3.3, §3.4, §10 items 1, 3).
//@ tensor 0 0x200000 2 70 pad=0xDEAD
//@ mem 0x200000 i32 100 101 102 103 104 105 106 107 108 109
//@ mem 0x200100 i32 164 165 166 167 168 169
//@ srf 30=0x0503
//@ expect V1.i32[0]=100 V1.i32[9]=109 V1.i32[63]=0
//@ expect V2.i32[0]=164 V2.i32[5]=169 V2.i32[6]=0xDEAD V2.i32[63]=0xDEAD
//@ expect V3.i32[0]=100 V3.i32[31]=0 V3.i32[32]=1 V3.i32[63]=1
//@ expect V4.i32[0]=1 V4.i32[32]=100 V4.i32[41]=109
//@ expect V5.i32[4]=1 V5.i32[5]=105 V5.i32[8]=108 V5.i32[9]=1
nop; nop; mov.i32 V3, 0x1; nop
nop; nop; mov.i32 V4, 0x1; nop
nop; nop; mov.i32 V5, 0x1; nop
nop; set_indx I3, b00001, 0x40; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I3; nop; nop; nop
ld_tnsr_low V3, 0x0, I2; nop; nop; nop
ld_tnsr_high V4, 0x0, I2; nop; nop; nop
ld_tnsr V5, S27, I2, S30; nop; nop; nop
halt
nop
nop
nop
