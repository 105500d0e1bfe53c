/* 64 KiB of data in DRAM (asm.ld's .dram), each word a function of its
 * index, checked word by word after an upload through the bootloader:
 * prints "blob ok" and ends with status 0, or status 1 at the first wrong
 * word (its index in the mailbox). */
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
TEST_END
    .data
msg: .asciz "blob ok\n"
    .section .dram, "aw"
    .p2align 2
blob:
    .set i, 0
    .rept WORDS
    .word W(i)
    .set i, i + 1
    .endr
