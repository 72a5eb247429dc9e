/*
 * The reference builder built as an external shared library, as a vendor's
 * builder is: it links no pbcheck library and exports one symbol,
 * pbc_target_get. EXT_ABI selects the table it hands out, to test the
 * loader's handshake: 0 the current table, 1 an ABI 1.0 table (smaller
 * struct_size: the loader fills in defaults), 2 a table of another major
 * version (refused).
 */
#include <pbcheck/target.h>

#include "ref_builder.h"

#ifndef EXT_ABI
#define EXT_ABI 0
#endif

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = "ext-reference";
    table.summary = "the reference, loaded from a shared library";
#if EXT_ABI == 1
    table.struct_size = (uint32_t)PBC_TARGET_SIZE_1_0;
#elif EXT_ABI == 2
    table.abi_version = PBC_TARGET_ABI_VERSION + 1;
#endif
    return &table;
}
