// ld_tnsr_low/high with a VPRF destination: the vendor's compiler emits
// them (`ld_tnsr_high VP4, S27, I3`), so they are loads of half of the
// predicate's lanes, not ILLEGAL_OPERAND (docs/tpc-isa.rst, "Where nxemu
// follows the vendor").  Tensor 0: 64 u8 elements at 0x200000, bytes
// 0x01 0x02 ... (element e = e + 1).  A u8 predicate image has 32 lanes:
// the low form writes lanes 0..15 from elements 0..15, the high form lanes
// 16..31 from elements 0..15 as well (the coordinate is the half's start),
// and the lanes of the other half keep their old value (VP2 starts all 1s).
//@ tensor 0 0x200000 0 64
//@ mem 0x200000 u8 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
//@ srf 3=0xFFFFFFFF
//@ expect VP1.b[0]=1 VP1.b[1]=0 VP1.b[8]=0 VP1.b[9]=1 VP1.b[127]=0 VP1.b[128]=0 VP1.b[255]=0
//@ expect VP2.b[0]=1 VP2.b[127]=1 VP2.b[128]=1 VP2.b[129]=0 VP2.b[137]=1 VP2.b[255]=0
//@ expect bundles 4
nop; nop; mov VP2, S3; nop
ld_tnsr_low VP1, 0x0, I2; nop; nop; nop
ld_tnsr_high VP2, 0x0, I2; nop; nop; nop
halt
nop
nop
nop
