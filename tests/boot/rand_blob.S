/* WORDS words of pseudo-random data in DRAM (asm.ld's .dram), word i a hash
 * of i and SEED, checked word by word after an upload: prints "blob ok" and
 * ends with status 0, or status 1 at the first wrong word. Built with
 * -DWORDS=N -DSEED=S for each image of the upload sweep
 * (tests/boot/regress_uploads.sh). */
#include "isa.h"
#define H(i) (((((i) ^ SEED) * 2654435761) ^ ((i) >> 3) ^ (SEED << 7)) & 0xFFFFFFFF)
TEST_BEGIN
    li   s1, KTPU_MMIO_BASE
    la   s2, blob
    li   s3, 0                 /* i */
    li   s4, WORDS
    li   s5, 2654435761
    li   s6, SEED
    slli s7, s6, 7
1:  xor  t0, s3, s6
    mul  t0, t0, s5
    srli t1, s3, 3
    xor  t0, t0, t1
    xor  t0, t0, s7
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
2:  li   t1, (1 << 1) | 1
    sw   t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
    j    5b
TEST_END
    .data
msg: .asciz "blob ok\n"
    .section .dram, "aw"
    .p2align 2
blob:
    .set i, 0
    .rept WORDS
    .word H(i)
    .set i, i + 1
    .endr
