; A regression image: prints "hello" and passes (examples/suite.ini).
        .text
        .org 0x01000000
start:  tst.u8 [0x2805000004], #{0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a}, shape=(6,1), step=(0,0)
        write.u32 [0x2805000000], 0x5555
        halt
