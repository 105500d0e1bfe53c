    .section .text
    .globl _start
_start:
    la t0, word
    lw t1, 0(t0)
    la t2, buf
    sw t1, 0(t2)
    li t0, 0x10000000
    li t1, (42 << 1) | 1
    sw t1, 0(t0)
1:  j 1b
    .section .data
word: .word 0x4b545055
    .section .bss
buf: .space 64
