/* The DDI across a process boundary (harness/ddi/): what the judge takes
 * from a driver process's store record (K_STORE) of an attribution
 * replay. The record is the driver's to forge: only a well-formed one,
 * whose frames name a library the judge knows at a plausible offset,
 * reaches the shim's watch, and only when a watched store awaits it. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ddi/link.h"
#include "kernel/shim.h"
#include "wire/wire.h"
#include "t.h"

/* A record's bytes: reached, count, then (library, offset) per frame. */
static void record(pbc_wire_buf *b, uint32_t reached, uint32_t count, const uint32_t *libs, const uint64_t *offs,
                   uint32_t frames)
{
    memset(b, 0, sizeof(*b));
    pbc_wire_put_u32(b, reached);
    pbc_wire_put_u32(b, count);
    for (uint32_t k = 0; k < frames; k++) {
        pbc_wire_put_u32(b, libs[k]);
        pbc_wire_put_u32(b, (uint32_t)offs[k]);
        pbc_wire_put_u32(b, (uint32_t)(offs[k] >> 32));
    }
}

T_TEST(store_record_well_formed)
{
    const uint32_t libs[] = {0, 1, 0};
    const uint64_t offs[] = {0x1234, 0x20, 0xfffff};
    pbc_wire_buf b;
    record(&b, 1, 3, libs, offs, 3);
    pbc_shim_store st;
    int reached = -1;
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 2, &st, &reached) == 0);
    T_CHECK(reached == 1 && st.remote == 1 && st.nframes == 3);
    T_CHECK(st.lib[0] == 0 && st.frames[0] == 0x1234 && st.lib[1] == 1 && st.frames[1] == 0x20 &&
            st.frames[2] == 0xfffff);
    free(b.p);
    record(&b, 0, 0, NULL, NULL, 0); /* a store with no frame of the builder's: a record still */
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == 0 && reached == 0 && st.nframes == 0);
    free(b.p);
}

T_TEST(store_record_garbled_is_refused)
{
    const uint32_t libs[PBC_SHIM_STORE_FRAMES + 1] = {0};
    uint64_t offs[PBC_SHIM_STORE_FRAMES + 1] = {0};
    pbc_wire_buf b;
    pbc_shim_store st;
    int reached;
    /* a library the judge has not loaded */
    const uint32_t other[] = {2};
    record(&b, 1, 1, other, offs, 1);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 2, &st, &reached) == -1);
    free(b.p);
    /* an offset past any library's code (an address, not an offset) */
    offs[0] = PBC_DDI_MAX_CODE_OFFSET;
    record(&b, 1, 1, libs, offs, 1);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == -1);
    free(b.p);
    offs[0] = 0x10;
    /* reached is a yes or a no */
    record(&b, 2, 1, libs, offs, 1);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == -1);
    free(b.p);
    /* more frames than a store keeps */
    record(&b, 1, PBC_SHIM_STORE_FRAMES + 1, libs, offs, PBC_SHIM_STORE_FRAMES + 1);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == -1);
    free(b.p);
    /* a count that says more than the bytes, or fewer */
    record(&b, 1, 3, libs, offs, 2);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == -1);
    free(b.p);
    record(&b, 1, 1, libs, offs, 2);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n, 1, &st, &reached) == -1);
    free(b.p);
    /* a frame cut short, and nothing at all */
    record(&b, 1, 1, libs, offs, 1);
    T_CHECK(pbc_ddi_store_parse(b.p, b.n - 2, 1, &st, &reached) == -1);
    T_CHECK(pbc_ddi_store_parse(b.p, 0, 1, &st, &reached) == -1);
    free(b.p);
}

T_TEST(store_record_without_a_watched_store_is_ignored)
{
    pbc_shim_store st;
    memset(&st, 0, sizeof(st));
    st.remote = 1;
    /* no watch armed */
    T_CHECK(pbc_shim_attrib_record(&st, 1) == -1);
    /* armed, but no store of the driver's was said to be watched */
    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    w.len = 1;
    pbc_shim_attrib_arm(&w);
    T_CHECK(pbc_shim_attrib_record(&st, 1) == -1);
    T_CHECK(w.stores == 0 && w.changes == 0);
    pbc_shim_attrib_arm(NULL);
}

T_MAIN()
