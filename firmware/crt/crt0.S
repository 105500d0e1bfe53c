/* KohakuTPU startup: replaces picolibc's crt0 so that the trap vector is set
 * before any C runs. Sets gp, sp and mtvec, copies .data from its load image,
 * clears .bss, sets the TLS pointer (picolibc keeps errno there), runs the
 * constructors, then exit(main()). Built with KTPU_BOOT_HOOK for the boot
 * image's built-in firmware: the bootloader runs before all of that. */
    .section .text.init.enter, "ax"
    .globl _start
    .type _start, @function
_start:
#ifdef KTPU_BOOT_HOOK
    /* the boot image (docs/boot.md): the UART bootloader first; it comes
     * back here unless it started an uploaded program */
    .option push
    .option norelax
    la    t0, __ktpu_boot_base
    .option pop
    jalr  t0
#endif
    .option push
    .option norelax
    la    gp, __global_pointer$
    .option pop
    la    sp, __stack
    la    t0, ktpu_trap_entry
    csrw  mtvec, t0
    la    a0, __data_start
    la    a1, __data_source
    la    a2, __data_size
    call  memcpy
    la    a0, __bss_start
    li    a1, 0
    la    a2, __bss_size
    call  memset
    la    a0, __tls_base
    call  _set_tls
    call  __libc_init_array
    li    a0, 0
    li    a1, 0
    call  main
    call  exit
1:  j     1b
    .size _start, . - _start
