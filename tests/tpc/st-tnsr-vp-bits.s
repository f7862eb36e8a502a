// ST_TNSR of a VPRF under a VPRF predicate (tpc.md §1.1, §3.3, §10 item 6):
// the 32-byte image is gated bit by bit, bit k of image byte i by predicate
// bit 8i+k; bits whose predicate is off keep their old value in memory.
// Memory starts as 0xAA everywhere (bits 1,3,5,7).
// Store 1: value all ones, predicate 0x0F in every byte (mov VP, S
// replicates S1 = 0x0F0F0F0F): each byte = 0x0F | (0xAA & 0xF0) = 0xAF.
// Store 2: value 0x55 in every byte, predicate = lanes 0..2 of an i32
// compare = bits 0..11: byte 0 all on = 0x55, byte 1 low nibble =
// (0x55 & 0x0F) | (0xAA & 0xF0) = 0xA5, bytes 2.. untouched = 0xAA.
//@ tensor 1 0x201000 0 32
//@ tensor 2 0x202000 0 32
//@ mem 0x201000 u32 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA
//@ mem 0x202000 u32 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA
//@ srf 1=0x0F0F0F0F 3=0xFFFFFFFF 5=0x55555555
//@ expect mem 0x201000 u32 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAFAFAFAF 0xAAAAAAAA
//@ expect mem 0x202000 u32 0xAAAAA555 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA 0xAAAAAAAA
nop; nop; mov VP1, S3; nop
nop; nop; mov VP2, S1; nop
nop; nop; mov VP3, S5; nop
nop; nop; cmp_less.i32 VP4, V_LANE_ID_32, 0x3; nop
nop; nop; nop; st_tnsr 0x1, I2, VP1, VP2
nop; nop; nop; st_tnsr 0x2, I2, VP3, VP4
halt
nop
nop
nop
