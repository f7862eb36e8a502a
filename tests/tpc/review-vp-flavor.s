// Review of tpc.md §9 item 4 (§1.1, §5.1.1): `mov VPd, Ss` with flavor
// k = 0..7 writes only bits 32k..32k+31 of VPd from Ss; the other sections
// keep their value (here all ones from `mov VPd, SP0`, which fills every
// bit).  The assembler has no flavor syntax, so the two load-slot MOVs are
// hand-encoded from the assembler's own `mov VP2, S1` (B = 8, §5.1.1) with
// B (LD SRC_B, bits 81:73) = k:
//   mov VP2, S1 flavor 1, S1 = 0x0000FFFF: bits 32..47 = 1, 48..63 = 0
//   mov VP3, S2 flavor 7, S2 = 0x80000001: bit 224 = 1, 225..254 = 0, 255 = 1
//@ srf 1=0x0000FFFF 2=0x80000001
//@ expect VP2.b[0]=1 VP2.b[31]=1 VP2.b[32]=1 VP2.b[47]=1 VP2.b[48]=0
//@ expect VP2.b[63]=0 VP2.b[64]=1 VP2.b[255]=1
//@ expect VP3.b[0]=1 VP3.b[223]=1 VP3.b[224]=1 VP3.b[225]=0 VP3.b[254]=0
//@ expect VP3.b[255]=1
nop; nop; mov VP2, SP0; nop
nop; nop; mov VP3, SP0; nop
// mov VP2, S1 flavor 1: LD opc 5, A = S1 (65), DEST = VP2 (242), B = 1
.long 0x0000003f, 0x0001f800, 0x00000200, 0x02f92080, 0x0001f000, 0, 0, 0
// mov VP3, S2 flavor 7: A = S2 (66), DEST = VP3 (243), B = 7
.long 0x0000003f, 0x0001f800, 0x00000e00, 0x02f9a100, 0x0001f000, 0, 0, 0
halt
nop
nop
nop
