/*
 * Fuzzes the reference ISA decoder and disassembler with raw bytes, read as
 * the GPU reads a paging buffer: packet after packet until one faults. The
 * decoder must stay inside the bytes it is given, report a length within
 * them, emit only known micro-ops, and agree with the disassembler.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"
#include "ref_isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) FUZZ_CHECK("decoder", cond)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    while (at < size) {
        pbc_uop uop;
        size_t len = 0;
        const char *why = NULL;
        char line[256];
        size_t dlen = ref_isa.disasm(data + at, size - at, line, sizeof(line));
        if (ref_isa.decode(data + at, size - at, &uop, &len, &why) != PBC_DECODE_OK) {
            CHECK(why != NULL && dlen == 0);
            break;
        }
        CHECK(len > 0 && len <= size - at);
        CHECK(uop.kind < PBC_UOP_KIND_COUNT);
        CHECK(dlen == len);
        at += len;
    }
    return 0;
}
