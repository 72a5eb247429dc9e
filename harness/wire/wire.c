/*
 * The transport between pbcheck and its workers: frames with a versioned
 * header carrying the job's number, and the encoding of their bodies. The
 * reader is the only way pbcheck reads a worker's bytes, so its checks
 * are the judge's first line against a builder that writes into its
 * worker's pipes or memory (wire.h).
 */
#include "wire/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/safe.h"
#include "base/util.h"

/* ---- frames ----------------------------------------------------------- */

static int io_all(int fd, void *p, size_t n, int writing)
{
    uint8_t *b = p;
    while (n) {
        ssize_t k = writing ? write(fd, b, n) : read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

int pbc_wire_write_all(int fd, const void *p, size_t n) { return io_all(fd, (void *)(uintptr_t)p, n, 1); }
int pbc_wire_read_all(int fd, void *p, size_t n) { return io_all(fd, p, n, 0); }

int pbc_wire_send(int fd, uint32_t seq, uint32_t flags, const void *body, size_t n)
{
    /* Header and body in one write where the descriptor takes it whole:
     * the reader then wakes once, to a whole frame. */
    pbc_wire_head h = {(uint32_t)n, PBC_WIRE_TAG, seq, flags};
    struct iovec v[2] = {{&h, sizeof(h)}, {(void *)(uintptr_t)body, n}};
    ssize_t k;
    do
        k = writev(fd, v, n ? 2 : 1);
    while (k < 0 && errno == EINTR);
    if (k < 0)
        return -1;
    size_t done = (size_t)k;
    if (done < sizeof(h))
        return pbc_wire_write_all(fd, (uint8_t *)&h + done, sizeof(h) - done) ||
                       pbc_wire_write_all(fd, body, n)
                   ? -1
                   : 0;
    return pbc_wire_write_all(fd, (const uint8_t *)body + (done - sizeof(h)), n - (done - sizeof(h)));
}

int pbc_wire_recv(int fd, pbc_wire_head *h, uint8_t **body)
{
    *body = NULL;
    if (pbc_wire_read_all(fd, h, sizeof(*h)) || h->tag != PBC_WIRE_TAG)
        return -1;
    uint8_t *b = pbc_xmalloc(h->len ? h->len : 1);
    if (pbc_wire_read_all(fd, b, h->len)) {
        free(b);
        return -1;
    }
    *body = b;
    return 0;
}

const char *pbc_wire_check(const pbc_wire_head *h, uint32_t seq, uint32_t known_flags, size_t max_len)
{
    static _Thread_local char why[96];
    if (h->tag != PBC_WIRE_TAG)
        snprintf(why, sizeof(why), "a frame tagged 0x%08x, not this transport's (0x%08x, version %u)", h->tag,
                 PBC_WIRE_TAG, PBC_WIRE_VERSION);
    else if (h->seq != seq)
        snprintf(why, sizeof(why), "the answer to job %u, not to job %u", h->seq, seq);
    else if (h->flags & ~known_flags)
        snprintf(why, sizeof(why), "flags 0x%x unknown", h->flags & ~known_flags);
    else if (h->len > max_len)
        snprintf(why, sizeof(why), "a frame of %u bytes, over the limit of %zu", h->len, max_len);
    else
        return NULL;
    return why;
}

/* ---- bodies ----------------------------------------------------------- */

static void buf_room(pbc_wire_buf *b, size_t more)
{
    if (b->n + more > b->cap) {
        b->cap = (b->n + more) * 2;
        b->p = pbc_xrealloc(b->p, b->cap);
    }
}

void pbc_wire_put_u32(pbc_wire_buf *b, uint32_t v)
{
    buf_room(b, 4);
    memcpy(b->p + b->n, &v, 4);
    b->n += 4;
}

void pbc_wire_put_u64(pbc_wire_buf *b, uint64_t v)
{
    pbc_wire_put_u32(b, (uint32_t)v);
    pbc_wire_put_u32(b, (uint32_t)(v >> 32));
}

void pbc_wire_put_bytes(pbc_wire_buf *b, const void *p, size_t len)
{
    pbc_wire_put_u32(b, p ? (uint32_t)len + 1 : 0); /* 0: NULL; else the length plus one */
    buf_room(b, len);
    if (len)
        memcpy(b->p + b->n, p, len);
    b->n += len;
}

void pbc_wire_put_raw(pbc_wire_buf *b, const void *p, size_t len)
{
    buf_room(b, len);
    if (len)
        memcpy(b->p + b->n, p, len);
    b->n += len;
}

void pbc_wire_put_str(pbc_wire_buf *b, const char *s) { pbc_wire_put_bytes(b, s, s ? strlen(s) : 0); }

uint32_t pbc_wire_get_u32(pbc_wire_reader *r)
{
    uint32_t v = 0;
    if (r->bad || r->at > r->n || r->n - r->at < 4) {
        r->bad = 1;
        return 0;
    }
    memcpy(&v, r->p + r->at, 4);
    r->at += 4;
    return v;
}

uint64_t pbc_wire_get_u64(pbc_wire_reader *r)
{
    uint64_t lo = pbc_wire_get_u32(r);
    return lo | (uint64_t)pbc_wire_get_u32(r) << 32;
}

uint32_t pbc_wire_get_u32_max(pbc_wire_reader *r, uint32_t max)
{
    uint32_t v = pbc_wire_get_u32(r);
    if (v > max) {
        r->bad = 1;
        return 0;
    }
    return v;
}

uint8_t *pbc_wire_get_bytes(pbc_wire_reader *r, size_t *n)
{
    uint32_t len = pbc_wire_get_u32(r);
    *n = 0;
    if (len == 0)
        return NULL;
    len--;
    if (r->bad || len > r->n - r->at) {
        r->bad = 1;
        return NULL;
    }
    uint8_t *s = pbc_xmalloc(len + 1u);
    if (len)
        memcpy(s, r->p + r->at, len);
    s[len] = 0;
    r->at += len;
    *n = len;
    return s;
}

char *pbc_wire_get_str(pbc_wire_reader *r)
{
    size_t n;
    char *s = (char *)pbc_wire_get_bytes(r, &n);
    if (s && strlen(s) != n) { /* a NUL inside: not one string */
        r->bad = 1;
        free(s);
        return NULL;
    }
    return s;
}

char *pbc_wire_get_text(pbc_wire_reader *r, unsigned flags)
{
    char *s = pbc_wire_get_str(r);
    if (!s || pbc_safe_is_text(s, flags))
        return s;
    char *safe = pbc_safe_text(s, flags);
    free(s);
    return safe;
}

int pbc_wire_done(const pbc_wire_reader *r) { return !r->bad && r->at == r->n; }
