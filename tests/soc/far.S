/* Linked where no memory is (see tests.mk): the loader must refuse it. */
    .text
    .globl _start
_start:
    j _start
