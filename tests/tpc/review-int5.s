// Review of tpc.md §9 item 25 with the masks the unit tests leave out
// (§5.0.5: bit d of bMMMMM selects dim d, leftmost digit = dim 4; other dims
// unchanged; an SRF/immediate A is broadcast to all dims).
//   set_indx b11111 from S1 = 5      -> I3 = 5,5,5,5,5
//   set_indx b10100 from S2 = -3     -> I4 = 0,0,-3,0,-3 (dims 2 and 4)
//   add b11111 I5 = I3 + I4          -> 5,5,2,5,2
//   add b00001 I6 = 7 + I3 (dim 0)   -> 12,0,0,0,0
//   sub b10100 I7 = I3 - I4          -> 0,0,8,0,8
//@ srf 1=5 2=-3
//@ expect I3=5,5,5,5,5 I4=0,0,-3,0,-3 I5=5,5,2,5,2 I6=12,0,0,0,0 I7=0,0,8,0,8
nop; set_indx I3, b11111, S1; nop; nop
nop; set_indx I4, b10100, S2; nop; nop
nop; add.i32 b11111 I5, I3, I4; nop; nop
nop; add.i32 b00001 I6, 0x7, I3; nop; nop
nop; sub.i32 b10100 I7, I3, I4; nop; nop
halt
nop
nop
nop
