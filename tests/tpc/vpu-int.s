// VPU integer arithmetic per type (tpc.md §5.0.4, §9 item 22): wrap versus
// `st` saturation, shifts by >= the element width give 0, ASH with rhu and a
// negative count (-122 >> 2: -31, with rhu -30), MAX/MIN signedness.
//@ srf 1=0x7FFFFFFF 2=1 3=200 4=0xFFFFFF85 5=33 6=0xFFFFFFFE 7=0x8000 8=0xFFFFFF86
//@ expect V10.i32[*]=0x80000000 V11.i32[*]=0x7FFFFFFF
//@ expect V12.u8[*]=144 V13.u8[*]=255
//@ expect V14.i32[*]=0 V15.i32[*]=-31 V16.i32[*]=-30
//@ expect V17.u16[*]=0x8000 V18.i16[*]=0x8000
//@ expect V19.i32[*]=-123 V20.u32[*]=0xFFFFFF85
nop; nop; mov.i32 V1, S1; nop
nop; nop; mov.u8 V3, S3; nop
nop; nop; mov.i32 V4, S4; nop
nop; nop; mov.i16 V7, S7; nop
nop; nop; mov.i32 V8, S8; nop
nop; nop; add.i32 V10, V1, S2; nop
nop; nop; add.i32 st V11, V1, S2; nop
nop; nop; add.u8 V12, V3, V3; nop
nop; nop; add.u8 st V13, V3, V3; nop
nop; nop; shl.i32 V14, V1, S5; nop
nop; nop; ash.i32 V15, V8, S6; nop
nop; nop; ash.i32 rhu V16, V8, S6; nop
nop; nop; max.u16 V17, V7, 0x1; nop
nop; nop; sub.i16 st V18, V7, 0x1; nop
nop; nop; min.i32 V19, V4, S2; nop
nop; nop; max.u32 V20, V4, S2; nop
halt
nop
nop
nop
