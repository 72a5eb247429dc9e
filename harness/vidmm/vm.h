/*
 * vm.h — inside the VidMm model (this room only): the state of one run and
 * the functions its files share. content.c: initial content, MDLs and
 * where an allocation's bytes live; buffers.c: paging buffers, the host
 * interface, Patch and SubmitCommand, fences and idleness; call.c: one
 * DDI operation through the documented loops; ops.c: scenario operations
 * as DXGKARG arguments; vidmm.c: setup, final checks and the run.
 */
#ifndef PBCHECK_VIDMM_VM_H
#define PBCHECK_VIDMM_VM_H

#include "base/util.h"
#include "kernel/shim.h"
#include "vidmm/vidmm.h"

#define VM_POISON 0xA5u
#define VM_PRIV_GUARD 64u
/* Private data of buffers not yet retired, at most: past it VidMm waits
 * for the GPU to finish what it was given, as it does when the
 * paging-buffer pool runs out, and reuses the retired buffers' blocks. */
#define VM_PRIV_BUDGET (64u << 20)

/* A buffer's private-data block and the last fence of its submissions
 * (0: none yet). */
typedef struct vm_priv_block {
    uint8_t *mem;
    uint32_t last_fence;
} vm_priv_block;
/* Pages of a large paging buffer kept open from its write offset on; the
 * others are sealed. The open pages are read after every call, and
 * moving them on costs protection changes (each about what reading
 * 100 KiB does, measured), so they move once the write offset is halfway
 * through them, and a buffer of up to twice as many pages, guards
 * included, is all open. */
#define VM_OPEN_PAGES 4u
#define VM_FAKE_DEVICE ((HANDLE)(uintptr_t)0xDE0000)
#define VM_FAKE_SYSTEM_CONTEXT ((HANDLE)(uintptr_t)0x5C0000)

typedef struct vm_buffer {
    uint32_t id;
    uint8_t *host;
    uint64_t phys;          /* where the GPU sees it: the pool, or its alias in a segment (S40) */
    uint32_t segment;       /* 0: system memory; else the memory segment holding it */
    uint32_t pool_offset;
    uint32_t size, span;
    uint32_t write_off, submitted;
    uint32_t first_page, end_page;  /* its pages in the pool, guards included */
    uint32_t open_first, open_end;  /* those open; the others are sealed */
    uint8_t *priv; /* private data (after its leading guard) */
    uint32_t priv_size, priv_write, priv_submitted;
} vm_buffer;

/* Where a paging buffer of the run lies in the pool, and how far its
 * builder wrote (the current buffer's own write offset is v->buf's). */
typedef struct vm_pool_buf {
    uint32_t pool_offset, size, write_off;
} vm_pool_buf;

/* CPU work a target queued: run through VidMm so that the kernel
 * services' views are written back when it returns. */
typedef struct vm_cpu_work {
    struct vm *v;
    void (*fn)(void *arg);
    void *arg;
    uint32_t op; /* the scenario operation whose submission queued it */
} vm_cpu_work;

/* An MDL VidMm handed out, and VidMm's own copy of what it says: VidMm
 * never reads back the MDL itself, which the builder could have changed;
 * the hash shows whether it did. */
typedef struct vm_mdl {
    MDL *mdl;
    pbc_frames *frames; /* its page frames, leading foreign pages included (count of them) */
    uint32_t count;
    uint64_t hash;   /* XXH3 of the MDL's first page as handed out */
    size_t mapped;   /* bytes mapped for an MDL beyond a page, whose later pages are guarded; 0: calloc'd */
} vm_mdl;

/* The most data a driver hands with DxgkCbUpdateContextAllocation. */
#define VM_CONTEXT_DATA_MAX 256u

typedef struct vm_alloc {
    HANDLE h;
    vm_mdl mdl;          /* its system pages, when in system memory */
    vm_mdl old_mdl;      /* during a transfer out of system memory: the source MDL */
    uint32_t paging_until; /* the paging engine is done with it once it ran every entry before this */
    uint32_t render_until; /* the render engine, likewise */
    uint32_t paging_fence; /* the fence of the submission that holds its last paging work */
    uint32_t range_wait;   /* render work its paging buffers wait for besides its own: work
                              queued on the segment range it moves into by its previous occupants */
    int in_pending;      /* used by the unsubmitted part of the current buffer */
    uint32_t work_op;    /* 1 + the scenario operation that last wrote paging work for it; 0: none */
    uint32_t facts_op;   /* 1 + the scenario operation facts_queued was found for; 0: none */
    int facts_queued;    /* pbc_vidmm_facts.alloc_queued as that operation began */
    uint32_t mdls;       /* MDLs made for it so far: each one's pages are laid out afresh */
    vm_mdl view_mdl;     /* MapApertureSegment2 of a CPU-visible allocation: the partial MDL of the
                            CPU view VidMm handed as CpuVisibleAddress, until the unmap */
    void *view;          /* that view, NULL when none */
    uint64_t driver_lo, driver_hi; /* its bytes [lo, hi) hold what the driver put there
                                      (InitContextResource, UpdateContextAllocation): masked
                                      wherever it goes, until a fill or a creation */
    vm_mdl ctx_mdl;      /* InitContextResource in system memory: the partial MDL of the CPU view
                            handed as Destination.VirtualAddress, kept for the context's lifetime */
    void *ctx_va;        /* that view, NULL when none */
} vm_alloc;

/* A ReadPhysical or WritePhysical VidMm issued. */
typedef struct vm_physical_op {
    uint32_t op;
    int write;
    UINT segment;
    uint64_t addr;
    int cpu_done;   /* the builder's CPU read (or wrote) the address's page during the operation */
    int unwatched;  /* the GPU could watch no more addresses */
} vm_physical_op;

/* GPU work queued through aperture pages [first, first + count) of a
 * segment, done once the render engine has run its entries before `until`. */
typedef struct vm_aperture_use {
    UINT segment;
    uint64_t first, count;
    uint32_t until;
} vm_aperture_use;

/* Render work queued on bytes [lo, hi) of a memory segment: entries
 * before `until` of the render engine. */
typedef struct vm_render_range {
    uint64_t lo, hi;
    uint32_t until;
} vm_render_range;

/* Aperture pages an unmap pointed at the dummy page, and the operation. */
typedef struct vm_unmapped {
    pbc_res_range range;
    uint32_t op;
} vm_unmapped;

/* A page table VidMm made: level 1 (a 1 GiB region) or 0 (a 2 MiB one). */
typedef struct vm_pt {
    uint64_t va;    /* the first address it covers */
    uint32_t level; /* UINT32_MAX: replaced, no longer in use */
    uint32_t page64; /* a leaf of 64 KiB entries */
    uint64_t phys;
    uint64_t wva;   /* where VidMm's tables window shows it (GPU_VIRTUAL adapters), 0: nowhere */
    uint32_t own;   /* the paging process's own (va.c, VA_OWN_TOP): updated at once with the CPU */
    uint32_t space; /* the address space whose tables it is part of */
} vm_pt;

/* A destination an operation's work writes (effects.c): bytes
 * [lo, hi) of physical memory or of GPU virtual space 0 (the paging
 * process's), or entries [lo, hi) of an aperture segment's GART. */
typedef struct vm_effect {
    uint64_t lo, hi;
    uint32_t op, kind, segment;
    uint32_t loose; /* bytes the operation may leave anything in (discarded content, a
                       context's image, WritePhysical's bytes): only ever given the benefit
                       of the doubt, never held against late work */
} vm_effect;

/* A page (or a run of GART entries) of those, physical, and its digest
 * when the held CPU work entry running now started. */
typedef struct vm_fx_piece {
    uint64_t lo, hi, hash;
    uint32_t op, kind, segment;
} vm_fx_piece;

typedef struct vm vm;

struct vm {
    pbc_gpu *gpu;
    const pbc_scenario *s;
    const pbc_target *t;
    pbc_vidmm_options opt;
    pbc_record *res;
    pbc_residency rs;
    vm_alloc *allocs;
    HANDLE adapter;
    pbc_host host;
    vm_buffer buf;
    int have_buf;
    vm_pool_buf *pool_bufs;  /* every paging buffer of the run, buffer id - 1 */
    uint32_t pool_buf_count, pool_buf_cap;
    uint32_t scratch_lo, scratch_hi; /* bytes of the current buffer past its write offset that the
                                        GPU wrote (its scratch): poison again before the next call */
    pbc_shim_watch *pool;    /* the paging-buffer pool's pages (the caller's, or own_pool) */
    pbc_shim_watch own_pool; /* for a run whose caller keeps no watch */
    uint8_t *open_copy;      /* Patch: the open pages' bytes outside the submission, before it */
    /* The array an operation points at (UpdatePageTable's entries,
     * CopyPageTableEntries' ranges, an ADL's pages) as handed to the builder: VidMm's own
     * buffer, laid from arr_from before each call, scribbled after it. */
    uint8_t *arr;
    size_t arr_cap, arr_bytes;
    const void *arr_from;
    uint8_t **arr_old; /* outgrown buffers, scribbled: kept to the end of the run, as a
                          builder may still read through a pointer into one */
    uint32_t arr_old_count, arr_old_cap;
    uint8_t *priv_mem;       /* the current buffer's private data block (guards included) */
    vm_priv_block *priv_live; /* blocks of buffers not retired, the current one last: a buffer's
                                 private data lives until its last submission's fence completes */
    uint32_t priv_live_count, priv_live_cap;
    uint8_t **priv_free;     /* blocks of retired buffers, for the next ones */
    uint32_t priv_free_count, priv_free_cap;
    vm_cpu_work **cpu_work;  /* queued CPU work, freed when the run ends */
    uint32_t cpu_work_count, cpu_work_cap;
    vm_mdl *retired;         /* MDLs of finished operations: alive until the run ends, since
                                paging buffers that refer to them may not have executed */
    uint32_t retired_count, retired_cap;
    uint32_t dma_size;
    uint32_t paging_queued;  /* the GPU queue's length when the last SubmitCommand returned */
    vm_render_range *seg_renders; /* render work queued on memory segments, for range reuse */
    uint32_t seg_render_count, seg_render_cap;
    int pending_global;      /* the unsubmitted part of the current buffer holds an operation that
                                names no allocation (map, unmap, physical) */
    uint32_t global_fence;   /* the fence of the last submission that held one */
    int refused;             /* the builder refused to create an allocation: the run is skipped */
    uint32_t op, sub, pass;
    int in_submit;
    uint32_t cur_sub;
    uint32_t last_fence_done;
    int stop;
    vm_unmapped *unmapped; /* aperture pages that must now hold the dummy page */
    vm_aperture_use *aperture_uses; /* queued GPU work through the aperture */
    uint32_t aperture_use_count, aperture_use_cap;
    vm_physical_op *physical_watch; /* the physical operation being issued */
    vm_physical_op *physical; /* to judge once the GPU has run them */
    uint32_t physical_count, physical_cap;
    vm_mdl partial_mdl;      /* during a special-lock transfer: its partial MDL */
    uint32_t partial_alloc, partial_first;
    size_t log_shown;           /* DbgPrint output already echoed to the trace */
    uint64_t written_hash;      /* XXH3 of the current buffer's unsubmitted bytes below pDmaBuffer
                                   on its open pages */
    uint64_t priv_written_hash; /* and of its unsubmitted private data */
    uint32_t unmapped_count, unmapped_cap;
    uint64_t va_root;        /* the root page table (0: the scenario uses no GPU virtual range) */
    uint64_t space_roots[PBC_MAX_SPACES]; /* each address space's root (space_roots[0] == va_root) */
    uint32_t space_count;    /* address spaces the scenario uses (1 + its highest `space=`) */
    uint32_t space;          /* the address space the tables work being done is for (va.c) */
    uint64_t work_root;      /* render work being queued runs in this root's space (0: va_root's) */
    vm_pt *pts;              /* the other tables */
    uint32_t pt_count, pt_cap;
    uint64_t pt_pool;        /* the run of system pages reserved for page tables */
    uint64_t pt_pool_pages, pt_pool_used;
    int pt_virtual;          /* the adapter takes updates by GPU virtual address */
    int pt_window;           /* VidMm's tables window is mapped (pt_virtual, or entries are copied) */
    uint32_t pt_windowed;    /* tables shown in the tables window so far */
    uint64_t mfence_page;    /* VidMm's paging monitored fence: its page (0: none) */
    uint64_t mfence_value;   /* the last value signaled */
    uint32_t mfence_count;
    uint32_t *mfence_ops;    /* the scenario operation of each signal, in order */
    uint32_t mfence_ops_cap;
    uint32_t mfence_judged;  /* signals whose value was reached and judged (PB-PAGING-FENCE) */
    uint32_t mfence_cursor;  /* writes before it were judged run */
    uint32_t *fence_buf_first, *fence_sub_next; /* each paging buffer's submissions, as chains */
    uint32_t fence_buf_cap, fence_sub_cap, fence_subs_indexed;
    vm_effect *effects;      /* every operation's destinations, noted as built (scenarios that
                                signal the paging fence only) */
    uint32_t effect_count, effect_cap;
    uint32_t *fx_held;       /* CPU work entries (queue sequence numbers) still to run when a
                                fence was reached: judged by what they change */
    uint32_t fx_held_count, fx_held_cap;
    uint32_t fx_signal_op;   /* the scenario operation of the latest signal they are held for */
    uint64_t fx_value;       /* and its value, and who wrote it */
    const char *fx_by;
    vm_fx_piece *fx_early;   /* the destinations of the operations before that signal, physical,
                                as the fence found them */
    uint32_t fx_early_count, fx_early_cap;
    uint64_t fx_digested;    /* bytes digested for held entries this run, against fx_budget */
    vm_fx_piece *fx_pieces;  /* while a held entry runs: what it must not change */
    uint32_t fx_piece_count, fx_piece_cap;
    uint64_t fx_value_of_pieces;
    const char *fx_by_of_pieces;
};

/* A rule function returns 1 when it recorded a finding: the scenario stops. */
#define VM_RULE(v, broken)       \
    do {                         \
        if (broken)              \
            (v)->stop = 1;       \
    } while (0)

void pbc_vidmm_trace(vm *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void pbc_vidmm_mask_add(vm *v, uint64_t start, uint64_t end, const char *reason)
{
    pbc_record_mask_add(v->res, start, end, reason);
}

static inline void pbc_vidmm_mask_clear(vm *v, uint64_t start, uint64_t end)
{
    pbc_record_mask_clear(v->res, start, end);
}

static inline uint64_t pbc_vidmm_segment_base(const vm *v, uint32_t id) { return v->s->segments[id - 1].base; }

static inline int pbc_vidmm_is_poison(const uint8_t *p, size_t n) { return pbc_all_bytes(p, n, VM_POISON); }

/* va.c: GPU virtual ranges (WDDM 2.x). */
/* Before any allocation takes system pages: pages for the page tables. */
void pbc_vidmm_va_reserve(vm *v);
void pbc_vidmm_va_setup(vm *v);
void pbc_vidmm_va_map(vm *v, const pbc_sop *op);   /* va-map, va-zero */
void pbc_vidmm_va_unmap(vm *v, const pbc_sop *op);
/* The root of address space `space` for render work in it: 0 for space 0
 * (the GPU's current root), so that a scenario of one space runs as it
 * always did. */
uint64_t pbc_vidmm_va_space_root(const vm *v, uint32_t space);
/* After a transfer of allocation `index` to `to`: its range follows it. */
void pbc_vidmm_va_moved(vm *v, uint32_t index, const pbc_res_alloc *to);
/* TransferVirtual from `src` to `dst` (the allocation's old MDL and new
 * one set up), and FillVirtual, through VidMm's paging windows. */
void pbc_vidmm_transfer_virtual(vm *v, const pbc_sop *op, const pbc_res_alloc *src, const pbc_res_alloc *dst);
void pbc_vidmm_fill_virtual(vm *v, const pbc_sop *op);
/* The GPU virtual address of byte `offset` of a mapped allocation. */
uint64_t pbc_vidmm_va_of(const vm *v, uint32_t index, uint64_t offset);
/* SignalMonitoredFence of the paging fence's next value, and the
 * operations with no effect on memory (notify). */
void pbc_vidmm_signal_fence(vm *v);
/* Unmaps a CPU view VidMm handed a builder (CpuVisibleAddress, a
 * context's VirtualAddress), if any, and retires its MDL. */
void pbc_vidmm_cpu_view_release(vm *v, vm_mdl *m, void **view);
/* VidMm's paging window over the whole of allocation `index`, where it is
 * now (context operations): its GPU virtual address, 0 when the scenario
 * uses no GPU virtual addresses; closed (not valid, flushed) after. */
uint64_t pbc_vidmm_va_window_open(vm *v, uint32_t index);
void pbc_vidmm_va_window_close(vm *v, uint32_t index);
/* effects.c: an operation's destinations (its DXGKARG as VidMm issued
 * it), noted under the current scenario operation. */
void pbc_vidmm_effects_note(vm *v, const DXGKARG_BUILDPAGINGBUFFER *a, int alloc);
/* The paging fence reached `value` (the signal of scenario operation
 * signal_op) with only CPU work entries seqs[0, n) pending among the work
 * before it: they are held and judged by what they change. */
void pbc_vidmm_effects_hold(vm *v, const uint32_t *seqs, uint32_t n, uint32_t signal_op, uint64_t value,
                            const char *by);
/* Around CPU work entry `seq` queued at the SubmitCommand of operation
 * cpu_op: before returns 1 when it is held (its digests taken), and then
 * after judges what it changed (PB-PAGING-FENCE). */
int pbc_vidmm_effects_before(vm *v, uint32_t seq);
void pbc_vidmm_effects_after(vm *v, uint32_t seq, uint32_t cpu_op);
/* A DDI call returned: a CPU write may have reached the paging fence. */
void pbc_vidmm_fence_poll(vm *v);
void pbc_vidmm_notify(vm *v, const pbc_sop *op);
/* va-move-tables: CopyPageTableEntries into new leaf tables. */
void pbc_vidmm_va_move_tables(vm *v, const pbc_sop *op);
/* PB-PTE and PB-TLB, once the GPU has run everything. */
void pbc_vidmm_va_check(vm *v);
/* call.c: the spec model's micro-ops, executed on the spec world's GPU. */
void pbc_vidmm_spec_sink(void *ctx, const pbc_uop *uop);

/* content.c */
void pbc_vidmm_write_content(vm *v, uint64_t addr, uint64_t len, uint32_t seed, uint64_t first_word);
/* An MDL for the allocation: mdl_offset foreign pages, then its own, on
 * fresh system pages laid out as its phys layout says. */
void pbc_vidmm_mdl_create(vm *v, uint32_t index, vm_mdl *out);
/* A partial MDL (as IoBuildPartialMdl makes) over pages [first, first+n)
 * of allocation `index`'s MDL `full`. */
void pbc_vidmm_mdl_partial(uint32_t index, const vm_mdl *full, uint32_t first, uint32_t n, vm_mdl *out);
void pbc_vidmm_mdl_free(vm_mdl *m);
/* Hands the MDL to the end of the run (it may still be in use by work
 * queued on the GPU); m is emptied. */
void pbc_vidmm_mdl_retire(vm *v, vm_mdl *m);
/* Whether the MDL still says what VidMm wrote into it. */
int pbc_vidmm_mdl_intact(const vm_mdl *m);
/* Calls fn for each physically contiguous piece of allocation bytes
 * [offset, offset+len) where the allocation now lives. */
void pbc_vidmm_alloc_pieces(vm *v, uint32_t index, uint64_t offset, uint64_t len,
                         void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *), void *ctx);
/* The same where `where` says it lives (its MDL, when in system memory). */
void pbc_vidmm_alloc_pieces_at(vm *v, uint32_t index, const pbc_res_alloc *where, uint64_t offset, uint64_t len,
                               void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *), void *ctx);
/* A pbc_vidmm_alloc_pieces callback writing initial content; ctx: the seed. */
/* Lays allocation `index`'s initial content (seed) where ra puts it. */
void pbc_vidmm_lay_content(vm *v, uint32_t index, const pbc_res_alloc *ra, uint32_t seed);

/* buffers.c */
void pbc_vidmm_host_init(vm *v);
/* The pool's watch, for a run that drives a target. */
void pbc_vidmm_pool_use(vm *v);
void pbc_vidmm_acquire_buffer(vm *v);
/* Before a BuildPagingBuffer call on the current buffer: the open pages
 * follow the write offset, and what is below it is the call's to keep. */
void pbc_vidmm_buffer_begin_call(vm *v);
/* After the call, which returned pDmaBuffer `now`: whether it changed the
 * guards, the tail past the buffer's size or the unsubmitted bytes below
 * where it started (*outside), and whether bytes of [now, the buffer's
 * end) are no longer poison (*past, judged only when now is inside). */
void pbc_vidmm_buffer_judge_call(vm *v, const uint8_t *now, int *outside, int *past);
/* The call was judged: what it wrote is the buffer's. */
void pbc_vidmm_buffer_end_call(vm *v);
/* Patches and submits the filled, not yet submitted part of the current buffer. */
void pbc_vidmm_flush(vm *v);
int pbc_vidmm_alloc_idle(const vm *v, int index);
/* PB-FENCE for fences their own buffer wrote, once those buffers ran. */
void pbc_vidmm_check_fences_inside(vm *v);
/* Waits until the GPU is done with the allocation (S23). */
void pbc_vidmm_wait_idle(vm *v, int index);
/* Allocation `index` moves or is filled into segment memory [lo, hi):
 * its paging buffers wait for the render work still queued there, on an
 * allocation that has left the range (discarded, moved, destroyed), as
 * VidMm hands a range to a new allocation only once the GPU is done
 * with it. */
void pbc_vidmm_claim_range(vm *v, uint32_t index, uint64_t lo, uint64_t hi);

/* Turns kernel-service misuse the services recorded since the last call
 * into a PB-KERNEL finding naming `where`, and echoes new DbgPrint lines
 * to the trace. Returns 1 after a finding. */
int pbc_vidmm_kernel_check(vm *v, const char *where);

/* call.c: issues one DDI operation until it completes. */
void pbc_vidmm_paging_op(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags, UINT idle_bit);

/* ops.c */
void pbc_vidmm_do_op(vm *v, const pbc_sop *op);

/* vidmm.c: an allocation's life. Create: the builder's create_allocation
 * (target mode), then its MDL and initial content from `seed` where
 * `where` says it starts; -1 when the builder refuses it. Destroy: once the GPU is done
 * with it, the builder's destroy_allocation; its MDL lives on until the
 * run ends, its bytes stay where they are. */
int pbc_vidmm_alloc_create(vm *v, uint32_t index, const pbc_res_alloc *where, uint32_t seed);
void pbc_vidmm_alloc_destroy(vm *v, uint32_t index);

/* Marks p as done by the CPU when one of the accesses covers its address
 * (a write, for WritePhysical). */
void pbc_vidmm_note_cpu_physical(vm_physical_op *p, const pbc_shim_access *acc, uint32_t n);

#endif
