// CONVERT_INT32/UINT32/INT16/UINT16 (tpc.md §5.5.3): value / 2^shift rounded
// by the OPERANDS_TYPE rounding mode, a negative shift multiplying, then
// saturated to 8 or 16 bits; the VPU writes element ratio*i + lane_sel and
// keeps the others.  By hand: 1000 >> 3 = 125; 20/8 = 2.5 -> rhne 2, rz 2,
// ru 3, rd 2; -20/8 = -2.5 -> rhne -2, rz -2, ru -2, rd -3; 5000 -> i8 127,
// -5000 -> -128, 100000 -> i16 32767, 300 -> u8 255; i16 -200 >> 1 = -100;
// u16 65535/256 = 255.996 -> rhne 256 -> u8 255; 3 * 2^2 = 12.
//@ srf 0=1000 1=3 2=20 3=0xFFFFFFEC 4=5000 5=0xFFFFEC78 6=100000 7=300 8=0xFF38 9=0xFFFF
//@ srf 10=8 11=0xFE 12=0 13=1
//@ expect S14=125 S15=2 S16=2 S17=3 S18=2 S19=0xFFFFFFFE S20=0xFFFFFFFE S21=0xFFFFFFFE S22=0xFFFFFFFD
//@ expect S23=127 S24=0xFFFFFF80 S25=5000 S26=32767 S27=255 S28=0xFFFFFF9C S29=255 S30=12
//@ expect V3.u8[0]=0x11 V3.u8[1]=0x7F V3.u8[2]=0x11 V3.u8[5]=0x7F V3.u8[253]=0x7F V3.u8[255]=0x11
//@ expect V5.u8[0]=0xFC V5.u8[1]=0 V5.u8[254]=0xFC V5.u8[255]=0
//@ expect V7.u16[0]=0 V7.u16[1]=250 V7.u16[127]=250
nop; convert_int32 rhne to_8 S14, S0, S1; nop; nop
nop; convert_int32 rhne to_8 S15, S2, S1; nop; nop
nop; convert_int32 rz to_8 S16, S2, S1; nop; nop
nop; convert_int32 ru to_8 S17, S2, S1; nop; nop
nop; convert_int32 rd to_8 S18, S2, S1; nop; nop
nop; convert_int32 rhne to_8 S19, S3, S1; nop; nop
nop; convert_int32 rz to_8 S20, S3, S1; nop; nop
nop; convert_int32 ru to_8 S21, S3, S1; nop; nop
nop; convert_int32 rd to_8 S22, S3, S1; nop; nop
nop; convert_int32 rhne to_8 S23, S4, S12; nop; nop
nop; convert_int32 rhne to_8 S24, S5, 0x0; nop; nop
nop; convert_int32 rhne to_16 S25, S4, S12; nop; nop
nop; convert_int32 rhne to_16 S26, S6, S12; nop; nop
nop; convert_uint32 rhne to_8 S27, S7, S12; nop; nop
nop; convert_int16 rhne S28, S8, S13; nop; nop
nop; convert_uint16 rhne S29, S9, S10; nop; nop
nop; convert_int32 rhne to_8 S30, S1, S11; nop; nop
// vector: 1000 >> 2 = 250 -> i8 127 into byte 4i+1; i16 -7 >> 1 = -3.5, rd -> -4 into byte 2i
nop; nop; mov.i32 V1, S0; nop
nop; nop; mov.i32 V2, 0x2; nop
nop; nop; mov.i8 V3, 0x11; nop
nop; nop; convert_int32 lane_sel=1 rhne to_8 V3, V1, V2; nop
nop; nop; mov.i16 V4, 0xFFF9; nop
nop; nop; mov.i32 V5, 0x0; nop
nop; nop; convert_int16 lane_sel=0 rd V5, V4, 0x1; nop
// uint32 -> u16 lane_sel=1: 1000 >> 2 = 250 into element 2i+1
nop; nop; mov.i32 V7, 0x0; nop
nop; nop; convert_uint32 lane_sel=1 rhne to_16 V7, V1, V2; nop
halt
nop
nop
nop
