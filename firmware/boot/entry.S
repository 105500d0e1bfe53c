/* The bootloader's entry, at the base of its region (linker/ktpu_boot.ld).
 * The built-in firmware's start-up calls it first (crt0.S built with
 * KTPU_BOOT_HOOK); it returns there when no image came or one was refused,
 * and never returns when an image was accepted. */
    .section .text.boot.entry, "ax"
    .globl ktpu_boot_entry
    .type ktpu_boot_entry, @function
ktpu_boot_entry:
    mv    t6, ra                    /* where the built-in firmware goes on */
    la    sp, __ktpu_boot_stack
    /* its own bss zeroed: a CPU reset without a new RAM image leaves it
     * as the last run left it */
    la    t0, __ktpu_boot_bss_start
    la    t1, __ktpu_boot_bss_end
1:  bgeu  t0, t1, 2f
    sw    zero, 0(t0)
    addi  t0, t0, 4
    j     1b
2:  addi  sp, sp, -16
    sw    t6, 12(sp)
    call  ktpu_boot_main
    lw    ra, 12(sp)
    ret
    .size ktpu_boot_entry, . - ktpu_boot_entry

/* ktpu_boot_start(entry): the accepted program starts as from reset:
 * every store it was copied with visible to fetch, interrupts off (they
 * were never enabled), no register but the pc carrying anything. */
    .text
    .globl ktpu_boot_start
    .type ktpu_boot_start, @function
ktpu_boot_start:
    fence
    .word 0x0000100f                /* fence.i (Zifencei; the toolchain wants it named in -march) */
    mv    t0, a0
    li    ra, 0
    li    sp, 0
    li    gp, 0
    li    tp, 0
    li    a0, 0
    li    a1, 0
    jr    t0
    .size ktpu_boot_start, . - ktpu_boot_start
