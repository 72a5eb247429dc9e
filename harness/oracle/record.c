/*
 * The record of one run (see record.h). Masks are kept as a small list of
 * disjoint ranges: defined writes punch holes in it, so a range is masked
 * exactly while the DDI leaves its content undefined.
 */
#include "oracle/record.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/util.h"

void pbc_record_init(pbc_record *r) { memset(r, 0, sizeof(*r)); }

void pbc_record_fini(pbc_record *r)
{
    pbc_rule_findings_fini(&r->findings);
    free(r->masks);
    free(r->writes);
    free(r->subs);
    free(r->owners);
    free(r->alloc_pfns);
    free(r->frame_runs);
    for (uint32_t i = 0; i < r->image_count; i++) {
        free(r->images[i].pages);
        free(r->images[i].bytes);
    }
    free(r->images);
    free(r->log);
    memset(r, 0, sizeof(*r));
}

void pbc_record_clear(pbc_record *r)
{
    r->findings.count = 0;
    r->mask_count = r->write_count = r->sub_count = r->owner_count = 0;
    r->exec_hash = 0;
    r->alloc_pfn_count = r->frame_run_count = 0;
    for (uint32_t i = 0; i < r->image_count; i++) {
        free(r->images[i].pages);
        free(r->images[i].bytes);
    }
    r->image_count = 0;
    r->log_len = 0;
    if (r->log)
        r->log[0] = 0;
    r->calls = r->buffers = r->busy_retries = r->insufficient = 0;
    r->unsupported_op = r->stopped = r->ops_done = 0;
}

pbc_image *pbc_record_image(pbc_record *r, uint32_t op, uint32_t alloc, int before, uint64_t lo, uint64_t hi)
{
    uint64_t pages = hi > lo ? (hi - lo + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE : 0;
    pbc_image im = {op, alloc, before != 0, lo, hi, pbc_xcalloc(pages ? pages : 1, sizeof(pbc_image_page)), NULL,
                    0, 0};
    PBC_PUSH(r->images, r->image_count, r->image_cap, im);
    return &r->images[r->image_count - 1];
}

uint8_t *pbc_image_page_bytes(pbc_image *im, uint32_t k, uint32_t len)
{
    pbc_grow((void **)&im->bytes, &im->byte_cap, im->byte_count + len, 1);
    im->pages[k].described = 0;
    im->pages[k].at = im->byte_count;
    im->byte_count += len;
    return im->bytes + im->pages[k].at;
}

void pbc_image_read(const pbc_image *im, uint64_t off, uint8_t *out, uint32_t n)
{
    const pbc_image_page *p = &im->pages[(off - im->lo) / PBC_PAGE_SIZE];
    uint32_t in = (uint32_t)((off - im->lo) % PBC_PAGE_SIZE);
    if (p->described)
        pbc_desc_read(&p->d, in, out, n);
    else
        memcpy(out, im->bytes + p->at + in, n);
}

const pbc_image *pbc_record_image_of(const pbc_record *r, uint32_t op, int before)
{
    for (uint32_t i = r->image_count; i-- > 0;) /* operation order: the newest first */
        if (r->images[i].op == op && r->images[i].before == (uint32_t)(before != 0))
            return &r->images[i];
    return NULL;
}

void pbc_record_mask_add(pbc_record *r, uint64_t start, uint64_t end, const char *reason)
{
    /* A range that carries on the last one for the same reason extends it
     * (page tables are laid one after another): every page compared looks
     * through the list. */
    pbc_mask *last = r->mask_count ? &r->masks[r->mask_count - 1] : NULL;
    if (last && last->end == start && last->reason == reason) {
        last->end = end;
        return;
    }
    pbc_mask m = {start, end, reason};
    PBC_PUSH(r->masks, r->mask_count, r->mask_cap, m);
}

void pbc_record_mask_clear(pbc_record *r, uint64_t start, uint64_t end)
{
    /* One pass: what a cut leaves lies outside [start, end), so pieces
     * pushed at the end need no look; the mask moved into slot i does. */
    uint32_t n = r->mask_count;
    for (uint32_t i = 0; i < n;) {
        pbc_mask m = r->masks[i];
        if (m.end <= start || end <= m.start) {
            i++;
            continue;
        }
        r->masks[i] = r->masks[--n];
        r->masks[n] = r->masks[--r->mask_count];
        if (m.start < start)
            pbc_record_mask_add(r, m.start, start, m.reason);
        if (end < m.end)
            pbc_record_mask_add(r, end, m.end, m.reason);
    }
}

void pbc_record_set_log(pbc_record *r, const char *text, size_t len)
{
    if (len + 1 > r->log_cap) {
        r->log = pbc_xrealloc(r->log, len + 1);
        r->log_cap = len + 1;
    }
    memcpy(r->log, text, len);
    r->log[len] = 0;
    r->log_len = len;
}

/* Copies the runs of frames to the end of frame_runs: the index of the first. */
static uint32_t record_runs(pbc_record *r, const pbc_frames *frames)
{
    uint32_t first = r->frame_run_count;
    pbc_grow((void **)&r->frame_runs, &r->frame_run_cap, first + frames->count, sizeof(*r->frame_runs));
    memcpy(r->frame_runs + first, frames->runs, frames->count * sizeof(*frames->runs));
    r->frame_run_count += frames->count;
    r->pool = frames->pool;
    return first;
}

static pbc_frames record_view(const pbc_record *r, uint32_t first_run, uint32_t run_count, uint64_t total)
{
    pbc_frames f = {r->frame_runs + first_run, run_count, run_count, total, r->pool};
    return f;
}

void pbc_record_owner_add(pbc_record *r, const pbc_frames *frames, uint32_t alloc, uint32_t lead)
{
    pbc_page_owner o = {alloc, lead, record_runs(r, frames), frames->count, frames->total};
    PBC_PUSH(r->owners, r->owner_count, r->owner_cap, o);
}

int pbc_record_owner_of(const pbc_record *r, uint64_t ppn, uint32_t *alloc, int64_t *page)
{
    for (uint32_t i = 0; i < r->owner_count; i++) {
        const pbc_page_owner *o = &r->owners[i];
        pbc_frames f = record_view(r, o->first_run, o->run_count, o->total);
        uint64_t index;
        if (pbc_frames_find(&f, ppn, &index)) {
            *alloc = o->alloc;
            *page = (int64_t)index - (int64_t)o->lead;
            return 1;
        }
    }
    return 0;
}

void pbc_record_alloc_frames(pbc_record *r, uint32_t alloc, const pbc_frames *frames)
{
    pbc_grow((void **)&r->alloc_pfns, &r->alloc_pfn_cap, alloc + 1, sizeof(*r->alloc_pfns));
    for (; r->alloc_pfn_count <= alloc; r->alloc_pfn_count++)
        r->alloc_pfns[r->alloc_pfn_count] = (pbc_pfn_span){0, 0, 0};
    r->alloc_pfns[alloc] = (pbc_pfn_span){record_runs(r, frames), frames->count, frames->total};
}

int pbc_record_alloc_frames_of(const pbc_record *r, uint32_t alloc, pbc_frames *view)
{
    if (alloc >= r->alloc_pfn_count || !r->alloc_pfns[alloc].run_count)
        return 0;
    const pbc_pfn_span *sp = &r->alloc_pfns[alloc];
    *view = record_view(r, sp->first_run, sp->run_count, sp->total);
    return 1;
}

int pbc_record_locate(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset,
                      uint32_t *buffer, uint64_t *buffer_offset)
{
    if (submission == 0 || submission > gpu->queued)
        return -1;
    const pbc_qentry *e = &gpu->queue[submission - 1];
    if (e->kind != PBC_QE_DMA || e->tag >= r->sub_count)
        return -1;
    /* The piece may have been rung rebased: offsets count from its own
     * base address, not necessarily the buffer's. */
    *buffer = r->subs[e->tag].buffer;
    *buffer_offset = e->phys + offset - r->subs[e->tag].phys;
    return 0;
}

int pbc_record_disasm(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset,
                      char *line, size_t line_size)
{
    uint32_t buffer;
    uint64_t at;
    if (pbc_record_locate(r, gpu, submission, offset, &buffer, &at) || !gpu->isa->disasm)
        return -1;
    const pbc_submission *s = &r->subs[gpu->queue[submission - 1].tag];
    if (at < s->start || at >= s->end)
        return -1;
    /* The pool is handed out again once it is full: the bytes are those
     * that ran only if the submission's hash still matches. */
    const uint8_t *host = gpu->dma_pool + s->pool_offset;
    if (XXH3_64bits(host + s->start, s->end - s->start) != s->bytes_hash)
        return -1;
    gpu->isa->disasm(host + at, s->end - at, line, line_size);
    return 0;
}

int pbc_record_packet(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset, pbc_uop *uop,
                      uint32_t *pool_at, uint32_t *length)
{
    uint32_t buffer;
    uint64_t at;
    if (pbc_record_locate(r, gpu, submission, offset, &buffer, &at))
        return -1;
    const pbc_submission *s = &r->subs[gpu->queue[submission - 1].tag];
    if (at < s->start || at >= s->end)
        return -1;
    const uint8_t *host = gpu->dma_pool + s->pool_offset;
    if (XXH3_64bits(host + s->start, s->end - s->start) != s->bytes_hash)
        return -1; /* the pool holds later bytes there now */
    size_t len = 0;
    const char *why;
    memset(uop, 0, sizeof(*uop));
    if (gpu->isa->decode(host + at, s->end - at, uop, &len, &why) != PBC_DECODE_OK)
        return -1;
    *pool_at = (uint32_t)(s->pool_offset + at);
    *length = (uint32_t)len;
    return 0;
}

const pbc_write_rec *pbc_record_find_write(const pbc_record *r, const pbc_gpu *gpu,
                                           uint32_t submission, uint32_t offset)
{
    uint32_t buffer;
    uint64_t at;
    if (pbc_record_locate(r, gpu, submission, offset, &buffer, &at))
        return NULL;
    for (uint32_t i = 0; i < r->write_count; i++) {
        const pbc_write_rec *w = &r->writes[i];
        if (w->buffer == buffer && at >= w->start && at < w->end)
            return w;
    }
    return NULL;
}
