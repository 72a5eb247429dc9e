/*
 * symbolize.h — names for code addresses from debug information, read
 * with elfutils' libdw in this process: no shell and no helper program,
 * so nothing a builder prints about its own crash is ever run.
 */
#ifndef PBCHECK_EXEC_SYMBOLIZE_H
#define PBCHECK_EXEC_SYMBOLIZE_H

#include <stdint.h>

typedef struct pbc_sym {
    char function[256]; /* the innermost function at the address (an inlined
                           one when it was inlined), from DWARF, else the
                           symbol table */
    char where[512];    /* its "FILE:LINE"; "FILE:?" or "" when unknown */
    char inlined[512];  /* "" or ", inlined into F at FILE:LINE" for each
                           function it was inlined into, innermost first */
} pbc_sym;

/* The code at byte `offset` of the ELF file `module` (an absolute path;
 * the offset as a backtrace gives it, from the load address). A return
 * address (every frame of a backtrace but the faulting one) is looked up
 * one byte earlier: the call, not what follows it, which may be the next
 * function. 0, or -1 when nothing names it. */
int pbc_sym_module(const char *module, uint64_t offset, int return_address, pbc_sym *out);

/* The same for a code address in this process (pbcheck or a library it
 * loaded), as an entry point (not a return address). */
int pbc_sym_address(const void *addr, pbc_sym *out);

#endif
