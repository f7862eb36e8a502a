; -cycle-limit 100 (machine.md §8): checked after T += Q; the first round
; whose new T >= 100 is the second (T = 128): exit 123, limit vtime = 128;
; 64 branches retire per round.
; args: -cycle-limit 100 -device loader,file=@IMAGE@
; exit: 123
; stderr: nxemu: limit: icount=128 vtime=128
        .org 0x01000000
start:  b start
