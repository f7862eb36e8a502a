/*
 * The floor for bench/seq-loop.sh: the same 8-instruction loop run by the
 * smallest interpreter of its kind -- pre-decoded records (operation, three
 * register numbers, an immediate), 64 32-bit registers, dispatch threaded
 * through a table of label addresses as nxemu's sequencer fast path does --
 * with none of an emulator's duties (no PC in guest memory, no counters, no
 * limits, no rounds).  What nxemu costs above this is the price of being a
 * machine.  usage: seq-floor ITER   (prints r2 r3 r4 r5 r6 r7, the check)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ADD, XOR, MULI, LSHRI, ANDI, ORR, SUBI, BNE0, END };

typedef struct Op {
    uint8_t op, rd, ra, rb;
    uint32_t imm;
    int32_t target; /* BNE0: index of the branch target */
} Op;

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    static const void *const lbl[] = {&&add, &&xor_, &&muli, &&lshri, &&andi, &&orr,
                                      &&subi, &&bne0, &&end};
    /* the program of bench/seq-loop.sh, with the same registers */
    const Op prog[] = {
        {ADD, 2, 2, 3, 0, 0},  {XOR, 3, 3, 2, 0, 0},  {MULI, 4, 4, 0, 3, 0},
        {LSHRI, 5, 4, 0, 3, 0}, {ANDI, 6, 5, 0, 0xff, 0}, {ORR, 7, 6, 2, 0, 0},
        {SUBI, 1, 1, 0, 1, 0}, {BNE0, 0, 1, 0, 0, 0},  {END, 0, 0, 0, 0, 0},
    };
    volatile uint32_t seed = 1; /* keeps the compiler from folding the loop */
    uint32_t R[64] = {0};
    R[1] = (uint32_t)strtoul(argv[1], NULL, 0);
    R[2] = seed, R[3] = 2 * seed, R[4] = 3 * seed;
    const Op *d = prog;
#define NEXT() do { d++; goto *lbl[d->op]; } while (0)
    goto *lbl[d->op];
add:   R[d->rd] = R[d->ra] + R[d->rb]; NEXT();
xor_:  R[d->rd] = R[d->ra] ^ R[d->rb]; NEXT();
muli:  R[d->rd] = R[d->ra] * d->imm; NEXT();
lshri: R[d->rd] = R[d->ra] >> d->imm; NEXT();
andi:  R[d->rd] = R[d->ra] & d->imm; NEXT();
orr:   R[d->rd] = R[d->ra] | R[d->rb]; NEXT();
subi:  R[d->rd] = R[d->ra] - d->imm; NEXT();
bne0:
    if (R[d->ra] != 0) {
        d = prog + d->target;
        goto *lbl[d->op];
    }
    NEXT();
end:
    printf("%u %u %u %u %u %u\n", R[2], R[3], R[4], R[5], R[6], R[7]);
    return 0;
}
