// Fast-path review (tpc-fastreview): the quick int5 ADD (tpc.md §5.0.5:
// Id[d] = A[d] + B[d] for the dims of the mask, others unchanged; a scalar
// or immediate operand is broadcast to all dims; i32 wraps).
//  I3 = (1, 2, 3, 4, 5), S1 = 10, S2 = -1.
//  - b00101 I2 = S1 + I3          -> (11, 0, 13, 0, 0)
//  - b11010 I4 = I3 + S2          -> (0, 1, 0, 3, 4)
//  - b00001 I5 = 0x7FFFFFFF + 1   -> dim 0 wraps to 0x80000000
//  - b00001 I6 += 0x40, twice     -> (128, 0, ...)
//  - predicate SP1 (false) or !SP0 -> I7 unchanged (0)
//  - b10000 I3 = S1 + I3          -> I3 = (1, 2, 3, 4, 15)
//  - LD set_indx I8 dim 0 = S1 and SPU add I8 dim 1 in one bundle: disjoint
//    dims, no conflict -> I8 = (10, 1, 0, 0, 0)
//@ srf 1=10 2=0xFFFFFFFF 3=0x7FFFFFFF
//@ expect I2=11,0,13,0,0 I4=0,1,0,3,4 I5=-2147483648,0,0,0,0 I6=128,0,0,0,0
//@ expect I7=0,0,0,0,0 I3=1,2,3,4,15 I8=10,1,0,0,0
nop; set_indx I3, b00001, 0x1; nop; nop
nop; set_indx I3, b00010, 0x2; nop; nop
nop; set_indx I3, b00100, 0x3; nop; nop
nop; set_indx I3, b01000, 0x4; nop; nop
nop; set_indx I3, b10000, 0x5; nop; nop
nop; set_indx I5, b00001, S3; nop; nop
nop; add.i32 b00101 I2, S1, I3; nop; nop
nop; add.i32 b11010 I4, I3, S2; nop; nop
nop; add.i32 b00001 I5, 0x1, I5; nop; nop
nop; add.i32 b00001 I6, 0x40, I6; nop; nop
nop; add.i32 b00001 I6, 0x40, I6; nop; nop
nop; add.i32 b11111 I7, S1, I3, SP1; nop; nop
nop; add.i32 b11111 I7, S1, I3, !SP0; nop; nop
set_indx I8, b00001, S1; add.i32 b00010 I8, S2, I3; nop; nop
nop; add.i32 b10000 I3, S1, I3; nop; nop
halt
nop
nop
nop
