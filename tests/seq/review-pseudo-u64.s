; Checklist 10: a pseudo TensorLoad of dtype u64 fails
; pseudo_mem2d_dtype_check in the loader: image-load error, exit 125.
; args: -bind 5=0x02000000 -device loader,file=@IMAGE@
; exit: 125
; stderr-prefix: nxemu:
        .org 0x01000000
start:  .rec ce 10 00 00 00 00 00 00 00 00 00 00 01 00 01 01 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        halt
