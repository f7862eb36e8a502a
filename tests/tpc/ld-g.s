// GEN_ADDR + LD_G (seed: gen_addr, s_*_ld_g, v_*_ld_g): the address of
// element I2 of tensor 1; a scalar load zero-extends, a vector load
// broadcasts the element to every lane (tpc.md §5.1, §9 item 11).
//@ tensor 1 0x200000 1 8,4
//@ mem 0x200000 u16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 0x8001
//@ expect AD1=0x200028 S5=0x8001 V6.u16[*]=0x8001 V7.u16[*]=0 S8=0
nop; set_indx I2, b00001, 0x4; nop; nop
nop; set_indx I2, b00010, 0x2; nop; nop
gen_addr AD1, 0x1, I2; nop; nop; nop
ld_g S5, AD1; nop; nop; nop
ld_g V6, AD1; nop; nop; nop
ld_g V7, AD1, !SP0; nop; nop; nop
ld_g S8, AD1, SP5; nop; nop; nop
halt
nop
nop
nop
