/* The reference ISA: every packet round-trips through encoder, decoder and
 * disassembler; malformed input is a decode fault; random bytes executed
 * as a DMA buffer give faults, never crashes (run under ASan+UBSan in CI). */
#include <stdint.h>

#include "gpu/gpu.h"
#include "ref_isa.h"
#include "t.h"

static pbc_uop decode_one(const uint8_t *b, size_t n, size_t expect_len)
{
    pbc_uop u;
    size_t len = 0;
    const char *why = NULL;
    T_CHECK(ref_isa.decode(b, n, &u, &len, &why) == PBC_DECODE_OK);
    T_CHECK(len == expect_len);
    return u;
}

T_TEST(roundtrip_every_packet)
{
    uint8_t b[64];
    size_t n = ref_encode_copy(b, 0x1000000010ull, 0x80001000ull, 4096);
    pbc_uop u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_COPY && u.dst == 0x1000000010ull && u.src == 0x80001000ull && u.size == 4096);
    n = ref_encode_fill(b, 0x2000, 12, 0xA1B2C3D4);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_FILL && u.dst == 0x2000 && u.size == 12 && u.value == 0xA1B2C3D4);
    n = ref_encode_write(b, 0x30, 8, 0x1122334455667788ull);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_WRITE_IMM && u.width == 8 && u.value == 0x1122334455667788ull);
    n = ref_encode_read(b, 0x40, 2);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_READ && u.dst == 0x40 && u.width == 2);
    n = ref_encode_gart(b, 3, 77, PBC_GART_VALID | PBC_GART_CACHE_COHERENT, 0x123456000ull);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_GART_WRITE && u.segment == 3 && u.index == 77 && u.value == 0x123456000ull &&
            u.flags == (PBC_GART_VALID | PBC_GART_CACHE_COHERENT));
    n = ref_encode_fence(b, 42);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_FENCE && u.value == 42);
    n = ref_encode_pte(b, 0x5000, 0xABCDEF01ull, 0x123456789ull);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_PTE_WRITE && u.dst == 0x5000 && u.value == 0xABCDEF01ull && u.index == 0x123456789ull &&
            u.flags == 0);
    ref_set_space(b, REF_SPACE_DST_VIRTUAL);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_PTE_WRITE && u.flags == PBC_UOP_DST_VIRTUAL);
    n = ref_encode_tlb_flush(b, 0x80000000ull, 0x200000, 0x3000);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_TLB_FLUSH && u.value == 0x80000000ull && u.dst == 0x200000 && u.size == 0x3000);
    n = ref_encode_copy(b, 0x1000, 0x2000, 16);
    ref_set_space(b, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL);
    u = decode_one(b, n, n);
    T_CHECK(u.kind == PBC_UOP_COPY && u.flags == (PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL));
    n = ref_encode_nop(b, 5);
    u = decode_one(b, n, 20);
    T_CHECK(u.kind == PBC_UOP_NOP);
}

static const char *decode_fault(const uint8_t *b, size_t n)
{
    pbc_uop u;
    size_t len = 99;
    const char *why = NULL;
    if (ref_isa.decode(b, n, &u, &len, &why) != PBC_DECODE_FAULT)
        return NULL;
    T_CHECK(why != NULL);
    return why;
}

T_TEST(malformed_packets_fault)
{
    uint8_t b[32] = {0};
    b[0] = 0x77; /* unknown opcode */
    b[2] = 1;
    T_CHECK(decode_fault(b, 4) && strstr(decode_fault(b, 4), "unknown opcode"));
    ref_encode_copy(b, 1, 2, 3);
    T_CHECK(decode_fault(b, 23) != NULL); /* truncated by one byte */
    T_CHECK(decode_fault(b, 3) != NULL);  /* not even a header */
    b[1] = 0x10;                          /* reserved header bits */
    T_CHECK(decode_fault(b, 24) != NULL);
    ref_encode_fill(b, 0, 4, 0);
    b[1] = 2; /* "src is virtual" on a packet without a source */
    T_CHECK(decode_fault(b, 20) != NULL);
    ref_encode_gart(b, 1, 0, PBC_GART_VALID, 0);
    b[1] = 1; /* a GART entry has no virtual address */
    T_CHECK(decode_fault(b, 24) != NULL);
    ref_encode_read(b, 0, 9); /* width 9 */
    T_CHECK(decode_fault(b, 16) != NULL);
    ref_encode_copy(b, 1, 2, 3);
    b[2] = 7; /* copy with the wrong length */
    T_CHECK(decode_fault(b, 32) != NULL);
}

T_TEST(disasm_one_line_per_packet)
{
    uint8_t b[32];
    char line[128];
    size_t n = ref_encode_fill(b, 0x1000, 64, 0xDEADBEEF);
    T_CHECK(ref_isa.disasm(b, n, line, sizeof(line)) == n);
    T_CHECK(strstr(line, "fill") && strstr(line, "0xdeadbeef") && !strchr(line, '\n'));
    b[0] = 0xEE;
    T_CHECK(ref_isa.disasm(b, n, line, sizeof(line)) == 0 && strstr(line, "unknown opcode"));
}

static uint64_t rng_state = 0x853C49E6748FEA9Bull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

T_TEST(random_bytes_fault_not_crash)
{
    pbc_segment_info segs[] = {{1, PBC_SEGMENT_MEMORY, 0, 16u << 20},
                               {2, PBC_SEGMENT_APERTURE, 0x800000000ull, 1u << 20}};
    const char *why;
    pbc_gpu *gpu = pbc_gpu_create(segs, 2, &ref_isa, &why);
    T_CHECK(gpu != NULL);
    uint32_t faults = 0;
    for (int iter = 0; iter < 3000; iter++) {
        pbc_gpu_reset(gpu);
        uint8_t *host;
        uint64_t phys;
        uint32_t size = 4 + rng() % 512;
        T_CHECK(pbc_gpu_dma_alloc(gpu, size, &host, &phys) == 0);
        for (uint32_t i = 0; i < size; i++)
            host[i] = (uint8_t)rng();
        if (iter % 2) /* plausible headers with random payloads reach deeper */
            for (uint32_t i = 0; i + 4 <= size; i += 24)
                host[i] = (uint8_t)(rng() % 10), host[i + 1] = 0, host[i + 2] = (uint8_t)(1 + rng() % 7), host[i + 3] = 0;
        pbc_gpu_push_dma(gpu, 0, phys, 0, size, 0);
        pbc_gpu_drain(gpu);
        faults += gpu->fault_count > 0;
        T_CHECK(gpu->executed == 1);
    }
    T_CHECK(faults > 2000); /* random bytes are nearly always rejected */
    pbc_gpu_destroy(gpu);
}

T_MAIN()
