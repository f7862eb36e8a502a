// tpc.md §8.6 metadata directives and §8.7 sections.
        .section .text
main:
halt
nop
nop
nop
        .section .TPC_METADATA
version: DD 12
march: DW 2
paramsNum: DB 3
numberOfThreads: DB 1
scalarLd[0]: DB 1
rmwStore: DH 0000000000000011
        .IndexMap
        " SCEVBEGIN T0:{0, 64}[0] SCEVEND"
