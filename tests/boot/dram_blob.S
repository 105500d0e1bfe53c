/* 64 KiB of data in DRAM (asm.ld's .dram), each word a function of its
 * index, checked word by word after an upload through the bootloader:
 * prints "blob ok" and ends with status 0, or status 1 at the first wrong
 * word (its index in the mailbox). Also checked: the RAM segment's last
 * four bytes (its file size is odd: the copy's byte tail; status 2) and
 * 4 KiB of zeros with no file bytes (.zeros, a segment of its own at
 * 0x4000, where the built-in firmware's code was: the loader must zero
 * it; status 3). */
#include "isa.h"
#define WORDS 16384
#define W(i) ((((i) * 2654435761) ^ 0x5A5A0000 ^ ((i) >> 5)) & 0xFFFFFFFF)
TEST_BEGIN
    li   s1, KTPU_MMIO_BASE
    la   s2, blob
    li   s3, 0                 /* i */
    li   s4, WORDS
    li   s5, 2654435761
    li   s6, 0x5A5A0000
1:  mul  t0, s3, s5
    xor  t0, t0, s6
    srli t1, s3, 5
    xor  t0, t0, t1
    lw   t2, 0(s2)
    bne  t0, t2, 2f
    addi s2, s2, 4
    addi s3, s3, 1
    bne  s3, s4, 1b
    la   t3, tail              /* the last bytes of the RAM segment */
    lbu  t0, 0(t3)
    li   t1, 0x5a
    bne  t0, t1, 7f
    lbu  t0, 1(t3)
    li   t1, 0xa5
    bne  t0, t1, 7f
    lbu  t0, 2(t3)
    li   t1, 0x3c
    bne  t0, t1, 7f
    lbu  t0, 3(t3)
    li   t1, 0x96
    bne  t0, t1, 7f
    la   t3, zeros             /* zeroed by the loader, not by this program */
    li   t4, 1024
8:  lw   t0, 0(t3)
    bnez t0, 10f
    addi t3, t3, 4
    addi t4, t4, -1
    bnez t4, 8b
    la   t3, msg
3:  lbu  t0, 0(t3)
    beqz t0, 4f
    sb   t0, KTPU_MMIO_UART_TX_OFFSET(s1)
    addi t3, t3, 1
    j    3b
4:  li   t1, 1
    sw   t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
5:  j    5b
2:  sw   s3, KTPU_MMIO_MBOX_ARG0_OFFSET(s1)
    li   t0, KTPU_MBOX_CMD_PRINT_WORD
    sw   t0, KTPU_MMIO_MBOX_CMD_OFFSET(s1)
    li   t1, (1 << 1) | 1
    sw   t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
6:  j    6b
7:  li   t1, (2 << 1) | 1
    sw   t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
    j    6b
10: li   t1, (3 << 1) | 1
    sw   t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
    j    6b
TEST_END
    .data
msg: .asciz "blob ok\n"
tail: .byte 0x5a, 0xa5, 0x3c, 0x96   /* last in the file: the segment's size is odd */
    .section .zeros, "aw", @nobits
    .p2align 2
zeros: .space 4096
    .section .dram, "aw"
    .p2align 2
blob:
    .set i, 0
    .rept WORDS
    .word W(i)
    .set i, i + 1
    .endr
