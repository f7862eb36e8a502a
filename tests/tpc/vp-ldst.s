// VPRF images in VLM (tpc.md §1.1, §5.1, §5.4): a 32-byte image, bit j =
// bit j%8 of byte j/8; a VPRF predicate gates every bit of a VPRF
// destination on its own (VP2 = 0x0F0F0F0F enables bits 0-3 of each byte).
//@ srf 1=0x0F0F0F0F 2=0x100 3=0xFFFFFFFF
//@ expect VP3.b[0]=1 VP3.b[3]=1 VP3.b[4]=0 VP3.b[251]=1 VP3.b[255]=0
//@ expect VP4.b[0]=1 VP4.b[255]=1
//@ expect mem 0x0 u8 0
nop; nop; mov VP1, S3; nop
nop; nop; nop; st_l_v S2, VP1
nop; nop; mov VP2, S1; nop
ld_l_v VP3, S2, VP2; nop; nop; nop
ld_l_v VP4, S2; nop; nop; nop
halt
nop
nop
nop
