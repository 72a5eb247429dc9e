/*
 * wire.h — the one transport between pbcheck and the processes that run
 * vendor code: frames with a versioned header, and the bounds-checked
 * encoding of what they carry.
 *
 * Every frame starts with a header of four 32-bit words: the length of
 * the body, a tag (PBC_WIRE_TAG: "PBW" and the transport's version), the
 * job's sequence number, and flags (an answer's; zero in a job). The
 * caller numbers its jobs; an answer must carry the number of the job it
 * answers, so a frame written ahead of the answer (by anything in the
 * worker's process that can reach its pipe), a frame left over from an
 * earlier job, or a frame of another version is refused before its body
 * is read.
 *
 * Bodies are length-prefixed fields appended to a growing buffer and
 * read back in order by a reader that never reads past what it was given
 * (docs/architecture.md, "What pbcheck reads from a worker").
 */
#ifndef PBCHECK_WIRE_WIRE_H
#define PBCHECK_WIRE_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The transport's version: bump it when a frame's layout or a job's
 * encoding changes. */
#define PBC_WIRE_VERSION 1u
#define PBC_WIRE_TAG (0x00574250u | (PBC_WIRE_VERSION << 24)) /* "PBW" + version, little-endian */

typedef struct pbc_wire_head {
    uint32_t len;   /* bytes of body after the header */
    uint32_t tag;   /* PBC_WIRE_TAG */
    uint32_t seq;   /* the job's number, echoed by its answer */
    uint32_t flags; /* an answer's flags; 0 in a job */
} pbc_wire_head;

/* All n bytes written (read), through interruptions: 0, or -1 when the
 * other end is gone. */
int pbc_wire_write_all(int fd, const void *p, size_t n);
int pbc_wire_read_all(int fd, void *p, size_t n);

/* Writes one frame (header and body): 0, or -1 when the reader is gone.
 * n must fit in 32 bits. */
int pbc_wire_send(int fd, uint32_t seq, uint32_t flags, const void *body, size_t n);
/* Reads one frame's header and body in a process that trusts its peer
 * (the worker reading its caller's job): 0 with *body owned (malloc) and
 * *h filled; -1 when the peer is gone or the header is not this
 * version's. */
int pbc_wire_recv(int fd, pbc_wire_head *h, uint8_t **body);

/* Whether a header read from an untrusted peer may be taken: NULL if so,
 * else why not, in a few words ("a frame of another version", "the
 * answer to job 3, not to job 4", "flags 0x10 unknown", "a frame of N
 * bytes, over the limit of M"). */
const char *pbc_wire_check(const pbc_wire_head *h, uint32_t seq, uint32_t known_flags, size_t max_len);

/* A body being written. */
typedef struct pbc_wire_buf {
    uint8_t *p;
    size_t n, cap;
} pbc_wire_buf;
void pbc_wire_put_u32(pbc_wire_buf *b, uint32_t v);
void pbc_wire_put_u64(pbc_wire_buf *b, uint64_t v); /* low word first */
void pbc_wire_put_str(pbc_wire_buf *b, const char *s); /* NULL reads back as NULL */
void pbc_wire_put_bytes(pbc_wire_buf *b, const void *p, size_t len);
/* len bytes as they are, with no length before them (a body appended to
 * a prefix the reader knows the end of). */
void pbc_wire_put_raw(pbc_wire_buf *b, const void *p, size_t len);

/* A body being read. Reading past the end, a length beyond the bytes
 * left, a string with a NUL inside or a value over its maximum marks the
 * reader bad: later reads give 0 and NULL. A peer's body is read whole and
 * then checked with pbc_wire_done before any of it is used. */
typedef struct pbc_wire_reader {
    const uint8_t *p;
    size_t n, at;
    int bad;
} pbc_wire_reader;
uint32_t pbc_wire_get_u32(pbc_wire_reader *r);
uint64_t pbc_wire_get_u64(pbc_wire_reader *r); /* as pbc_wire_put_u64 wrote it */
uint32_t pbc_wire_get_u32_max(pbc_wire_reader *r, uint32_t max); /* over max: bad */
char *pbc_wire_get_str(pbc_wire_reader *r);                       /* owned, or NULL */
/* A string from a peer, made safe (pbc_safe_text with flags). */
char *pbc_wire_get_text(pbc_wire_reader *r, unsigned flags);
uint8_t *pbc_wire_get_bytes(pbc_wire_reader *r, size_t *n); /* owned (NUL after the bytes), or NULL */
/* Every byte read and none missing. */
int pbc_wire_done(const pbc_wire_reader *r);

#endif
