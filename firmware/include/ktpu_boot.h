/* The UART boot frame (SPEC §9.1, docs/boot.md): what build/ktpu-upload
 * writes and the bootloader (firmware/boot/) reads. Portable C99, shared by
 * both; nothing here touches hardware.
 *
 *   header   KTPU_BOOT_HDR_BYTES, little-endian words:
 *              0 magic   KTPU_BOOT_MAGIC ("KTPB" in byte order)
 *              4 version KTPU_BOOT_VERSION (bits 15:0), flags (31:16)
 *              8 entry   where the program starts (0: the reset PC)
 *             12 nseg    segment records in the payload
 *             16 bytes   payload bytes (the records, back to back)
 *             20 crc     CRC-32 of the blocks' CRCs (below), back to back:
 *                        the payload's check, at 4 bytes of work per block
 *             24 hcrc    CRC-32 of header bytes 0..23
 *   payload  `bytes` bytes in blocks of KTPU_BOOT_BLOCK (the last shorter),
 *            each followed by the CRC-32 of its bytes; the records are
 *            {addr, filesz, memsz, filesz bytes} (words little-endian; the
 *            bytes past filesz up to memsz are zeroed).
 *
 * With flag ACK the sender waits after the header and after each block for
 * one byte: KTPU_BOOT_ACK (go on), KTPU_BOOT_NAK (the block's CRC was wrong:
 * send it again, at most KTPU_BOOT_RETRIES times) or KTPU_BOOT_CAN (refused:
 * the bootloader's one "boot:" line follows). Without ACK (an image fed
 * from a file) the bootloader sends nothing back and a bad block is a
 * refusal. CRC-32 is zlib's (reflected 0xEDB88320, init and final xor
 * all ones). */
#ifndef KTPU_BOOT_H
#define KTPU_BOOT_H

#include "ktpu_defs.h"

#define KTPU_BOOT_MAGIC 0x4250544Bu    /* 'K' 'T' 'P' 'B' */
#define KTPU_BOOT_VERSION 1u
#define KTPU_BOOT_FLAG_ACK 0x1u        /* in the flags half of word 1 */
#define KTPU_BOOT_HDR_BYTES 28u
#define KTPU_BOOT_REC_BYTES 12u        /* addr, filesz, memsz */
#define KTPU_BOOT_BLOCK 256u
#define KTPU_BOOT_RETRIES 8u

#define KTPU_BOOT_ACK 0x06u
#define KTPU_BOOT_NAK 0x15u
#define KTPU_BOOT_CAN 0x18u

/* The bootloader's own region, the top of local RAM (code, data, stack):
 * no image may load there. Read by the build for the link scripts. */
#define KTPU_BOOT_BYTES 0x2000u
/* The staging area at the top of the simulated DRAM: the payload lands
 * here whole and is checked before a byte of it is copied to its place,
 * so a refused image changes nothing the built-in firmware uses. Images
 * may not load into it, and the payload may not be larger. */
#define KTPU_BOOT_STAGE_OFFSET 0x00F00000u   /* from DRAM_BASE */
#define KTPU_BOOT_STAGE_BYTES 0x00100000u

/* Where an image may load: RAM [RAM_BASE, KTPU_BOOT_BASE) and DRAM
 * [DRAM_BASE, KTPU_BOOT_STAGE_BASE). */
#define KTPU_BOOT_BASE (KTPU_RAM_BASE + KTPU_RAM_BYTES - KTPU_BOOT_BYTES)
#define KTPU_BOOT_STAGE_BASE (KTPU_DRAM_BASE + KTPU_BOOT_STAGE_OFFSET)

#endif
