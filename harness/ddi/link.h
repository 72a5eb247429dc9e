/*
 * link.h — the DDI across a process boundary: VidMm and the GPU model in
 * the judging process, the vendor's builder in a driver process of its
 * own, as in Windows (docs/architecture.md, "Trust boundary").
 *
 * The judge holds a pbc_target whose hooks are proxies (pbc_ddi_proxy):
 * each call becomes a frame on the link (harness/wire/), and the driver
 * process calls the builder's own hook and answers. While a call runs,
 * the driver process calls back for what the judge owns (the host's
 * doorbell, fences, registers, log and CPU work; a woken system thread)
 * with frames of its own, each answered before the call's answer comes.
 *
 * Memory: the ARENA is MAP_SHARED memory mapped at the same address in
 * both processes (made before the driver process is forked). A call's
 * arguments, and everything they point to, are copied into it; the
 * paging-buffer pool of a target world lives in it too, so DMA buffer
 * pointers pass unchanged. Nothing else of the judge's is in the driver
 * process's reach: the rest of its memory there is a copy made before any
 * job ran.
 *
 * Everything that comes back (frames, fields, handles, bytes in the
 * arena) is the driver's, so hostile: every frame header is checked
 * (pbc_wire_check), every body read with the bounded reader and checked
 * whole, every text made safe, and a pointer that comes back is taken
 * only where it lies inside what was handed out.
 */
#ifndef PBCHECK_DDI_LINK_H
#define PBCHECK_DDI_LINK_H

#include <stddef.h>
#include <stdint.h>

#include <pbcheck/target.h>

/* Bytes of the arena: two paging-buffer pools (a target world and its
 * determinism re-run) and room for the arguments of the largest call. */
#define PBC_DDI_POOLS 2u
#define PBC_DDI_ARGS_BYTES (64u << 20)

/* How a worker ends when its driver process broke the link (died
 * without a signal the worker can pass on, or answered with something
 * that is no answer): the builder's failure. */
#define PBC_DDI_LOST_EXIT 124

/* Made before the fork: the shared arena and the link's two ends.
 * 0, or -1 with errno. */
int pbc_ddi_prepare(void);
/* In the driver process, first: every descriptor closed but its end of
 * the link (and 0, 1, 2). */
void pbc_ddi_driver_fds(void);
/* In the driver process: serves the judge's calls on the builders in
 * targets (by index) until the judge goes; never returns. */
_Noreturn void pbc_ddi_serve(const pbc_target *const *targets, uint32_t count);
/* In the judge, once the driver process `pid` runs: the link is the
 * judge's from now on. */
void pbc_ddi_judge(int pid);
/* In the judge, after each job and before its answer: a driver process
 * that wrote on its link's socket (which carries nothing) fails the job
 * (the worker ends, PBC_DDI_LOST_EXIT). Nothing without a driver process. */
void pbc_ddi_check_quiet(void);
/* Whether this process judges a driver process (pbc_ddi_judge ran). */
int pbc_ddi_remote(void);
/* The CPU the judge and its driver process share while a case runs
 * (PBCHECK_SPLIT_PIN), or -1: the decoder process is asked to join them. */
int pbc_ddi_pinned_cpu(void);

/* The proxy of target `index`: its table keeps the description's members
 * (name, sizes, adapter) with hooks that call across the link. Its ISA
 * description is not the driver process's to answer: a decoder process
 * of its own does (ddi/decoder.h). */
void pbc_ddi_proxy(pbc_target *table, uint32_t index);

/* Whether t's hooks are proxies (its builder runs in the driver process):
 * its worlds' pools and private data must be in the arena. */
int pbc_ddi_is_proxy(const pbc_target *t);

/* VidMm's CPU view of a page table (two pages, vidmm/va.c) for a builder
 * in the driver process: in the arena, at the same address there; NULL
 * without a driver process. */
uint8_t *pbc_ddi_table_view(void);

/* A paging-buffer pool in the arena for a target world's GPU (NULL when
 * the judge has no driver process or every pool is lent). */
uint8_t *pbc_ddi_pool(void);

/* Memory in the arena for a paging buffer's private data (NULL when the
 * judge has no driver process or the room is used up), and its release:
 * whether p was such memory. */
void *pbc_ddi_private_alloc(size_t bytes);
int pbc_ddi_private_free(void *p);

/* Attribution replays (exec/attribute.c, docs/triage.md "Who wrote it")
 * with the builder in the driver process: with on, the driver process
 * arms its store watch (a watched store's fault, which the shim marks as
 * one, is single-stepped there and its record sent back), without it
 * disarms; nothing without a driver process. */
void pbc_ddi_watch(int on);

/* Where a store record's frame may lie in a library: past this offset
 * from its load address, no code of a shared library is. */
#define PBC_DDI_MAX_CODE_OFFSET ((uint64_t)1 << 32)

/* A store record from the driver process (a K_STORE frame's body after
 * its kind): whether the store reached the watched bytes (0 or 1), the
 * count of its frames (at most PBC_SHIM_STORE_FRAMES), and for each the
 * index of the library it lies in (below `libraries`) and its offset
 * from that library's load address (below PBC_DDI_MAX_CODE_OFFSET), and
 * nothing after. 0 with *out (remote, nframes, lib, frames) and *reached
 * filled; -1 when the bytes are not exactly that. */
struct pbc_shim_store;
int pbc_ddi_store_parse(const uint8_t *body, size_t len, uint32_t libraries, struct pbc_shim_store *out,
                        int *reached);

#endif
