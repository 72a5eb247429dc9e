/*
 * Target lookup and the ABI handshake. Built-in targets are pbcheck's own
 * code and are found by name. A library target is a vendor's code, and
 * pbcheck's own process never loads it (docs/architecture.md, "Trust
 * boundary"): a worker process loads it, checks its table and sends back a
 * description (every member the harness plans with: name, sizes, supported
 * operations, the adapter declaration, the ISA's entry format), and the
 * caller keeps that description as the target. Its hooks are traps: a call
 * in the caller's process is a harness bug. Each worker, as it starts,
 * loads the library again and puts the real table in the description's
 * place (pbc_exec_targets_load_here), so that a job sees one table whatever
 * process it runs in. A table from an older minor version is copied into a
 * full-size table with defaults for the members it lacks.
 */
#define _GNU_SOURCE
#include "exec/target.h"

#include <dlfcn.h>
#include <errno.h>
#include <sys/prctl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "ddi/decoder.h"
#include "ddi/link.h"
#include "sandbox/sandbox.h"
#include "gpu/gpu.h"
#include "registry.h"

uint32_t pbc_host_abi_version(void) { return PBC_TARGET_ABI_VERSION << 16 | PBC_TARGET_ABI_MINOR; }

/* A library target as the caller keeps it: what the probe described, and,
 * in a process that loaded the library, the library's own table. */
typedef struct library_target {
    char *path;
    pbc_target table; /* full size; the description's members, or the library's once loaded here */
    pbc_isa isa;
    pbc_adapter_decl adapter;
    pbc_segment_decl segments[8];
    char *strings[3];   /* the description's name, summary and ISA name, kept when the table is replaced */
    uint8_t *described; /* the probe's bytes, to check that a later load says the same */
    size_t described_len;
    int loaded_here;
} library_target;

static int targets_split; /* workers split: set by pbc_exec_targets_split_on */
static library_target **libraries; /* each on its own: tables handed out never move */
static uint32_t library_count, library_cap;

const char *pbc_exec_target_check(const pbc_target *t)
{
    if (t->abi_version != PBC_TARGET_ABI_VERSION)
        return "target ABI major version differs from this pbcheck's (rebuild it against these headers)";
    if (t->struct_size < PBC_TARGET_SIZE_1_0)
        return "target table is smaller than ABI version 1.0 requires";
    if (!t->name || !t->isa || !t->create_adapter || !t->destroy_adapter || !t->create_allocation ||
        !t->destroy_allocation || !t->build_paging_buffer || !t->patch || !t->submit_command)
        return "target table is missing a hook";
    if (t->isa->abi_version != PBC_ISA_ABI_VERSION || t->isa->struct_size < PBC_ISA_SIZE_BASE ||
        !t->isa->decode || !t->isa->disasm)
        return "target's ISA decoder table is unusable";
    if (pbc_isa_pte_size(t->isa) != 8 && pbc_isa_pte_size(t->isa) != 16)
        return "the ISA's page-table entries must be 8 or 16 bytes";
    if (pbc_isa_pte_size(t->isa) != 16 && !pbc_isa_pte_decode(t->isa))
        return "an ISA with entries that are not DXGK_PTE must decode them (pte_decode)";
    if (pbc_isa_pt_levels(t->isa) != 3 && pbc_isa_pt_levels(t->isa) != 4)
        return "the ISA's page tables must have 3 or 4 levels";
    /* 0: a builder that writes no bytes (every operation by the CPU) needs no buffer. */
    if (t->min_dma_size > (1u << 20))
        return "min_dma_size must be at most 1 MiB";
    if (t->private_data_size > (1u << 20))
        return "private_data_size is limited to 1 MiB";
    const pbc_adapter_decl *d = t->adapter;
    if (d && d->struct_size < PBC_ADAPTER_DECL_SIZE_1_1)
        return "the adapter declaration is smaller than its ABI requires";
    if (d && PBC_ADAPTER_DECL_HAS(d->struct_size, page_table_update) && d->page_table_update > PBC_PT_UPDATE_GPU_VIRTUAL)
        return "the adapter declares a page-table update mode this pbcheck does not know";
    if (d && PBC_ADAPTER_DECL_HAS(d->struct_size, gpummu_lacks) && (d->gpummu_lacks & ~PBC_GPUMMU_KNOWN))
        return "the adapter declares MMU limits (gpummu_lacks) this pbcheck does not know";
    if (d && d->paging_buffer_size && (d->paging_buffer_size < t->min_dma_size || d->paging_buffer_size > (1u << 20)))
        return "the declared paging-buffer size must be between min_dma_size and 1 MiB";
    if (d && d->segment_count && (!d->segments || d->segment_count > 8))
        return "the adapter declares between 1 and 8 segments";
    if (d && d->segment_count) {
        pbc_segment_info seg[8];
        for (uint32_t i = 0; i < d->segment_count; i++)
            seg[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                        d->segments[i].size};
        const char *why = pbc_gpu_layout_check(seg, d->segment_count);
        if (why)
            return why; /* static text: a declared layout the model cannot build */
    }
    return NULL;
}

int pbc_exec_target_is_path(const char *name) { return strchr(name, '/') || strstr(name, ".so"); }

/* ---- loading a library in this process -------------------------------- */

/* dlopen, pbc_target_get, the version and the table checked: the table
 * copied to full size into *out. 0, or -1 with why. */
static int library_load(const char *path, pbc_target *out, char *why, size_t why_size)
{
    /* By its absolute path: glibc's backtrace then names the library so,
     * and only such a frame is symbolized (exec/isolate.c). */
    char abs[PATH_MAX];
    void *lib = dlopen(realpath(path, abs) ? abs : path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_size, "cannot load target '%s': %s", path, dlerror());
        return -1;
    }
    pbc_target_get_fn get = (pbc_target_get_fn)(uintptr_t)dlsym(lib, "pbc_target_get");
    const pbc_target *t = get ? get() : NULL;
    if (!t) {
        snprintf(why, why_size, "target '%s' exports no pbc_target_get (or it returned NULL)", path);
        return -1;
    }
    if (t->abi_version != PBC_TARGET_ABI_VERSION || t->struct_size < PBC_TARGET_SIZE_1_0) {
        snprintf(why, why_size, "target '%s' has ABI %u (table of %u bytes); this pbcheck speaks ABI %u.%u "
                 "(at least %zu bytes)", path, t->abi_version, t->struct_size, PBC_TARGET_ABI_VERSION,
                 PBC_TARGET_ABI_MINOR, (size_t)PBC_TARGET_SIZE_1_0);
        return -1;
    }
    memset(out, 0, sizeof(*out)); /* zero: the defaults of members an older table lacks */
    memcpy(out, t, t->struct_size < sizeof(*out) ? t->struct_size : sizeof(*out));
    out->struct_size = sizeof(*out);
    const char *bad = pbc_exec_target_check(out);
    if (bad) {
        snprintf(why, why_size, "target '%s' is unusable: %s", path, bad);
        return -1;
    }
    return 0; /* the library stays loaded for the life of the process */
}

/* ---- the description ---------------------------------------------------- */



/* Every member of a checked table that the harness reads without calling
 * the target; a hook only as whether it is there. */
static void describe(const pbc_target *t, pbc_wire_buf *b)
{
    pbc_wire_put_str(b, t->name);
    pbc_wire_put_str(b, t->summary);
    pbc_wire_put_u32(b, t->min_dma_size);
    pbc_wire_put_u32(b, t->private_data_size);
    pbc_wire_put_u64(b, t->supported_operations);
    pbc_wire_put_u32(b, (t->gart_view != NULL) | (t->context_update_data != NULL) << 1);
    const pbc_isa *isa = t->isa;
    pbc_wire_put_str(b, isa->name);
    pbc_wire_put_u32(b, pbc_isa_pte_size(isa));
    pbc_wire_put_u32(b, pbc_isa_pt_levels(isa));
    pbc_wire_put_u32(b, pbc_isa_pte_decode(isa) != NULL);
    const pbc_adapter_decl *d = t->adapter;
    pbc_wire_put_u32(b, d != NULL);
    if (!d)
        return;
    pbc_wire_put_u32(b, d->segment_count);
    pbc_wire_put_u32(b, d->paging_buffer_size);
    pbc_wire_put_u32(b, PBC_ADAPTER_DECL_HAS(d->struct_size, page_table_update) ? d->page_table_update : 0);
    pbc_wire_put_u32(b, PBC_ADAPTER_DECL_HAS(d->struct_size, gpummu_lacks) ? d->gpummu_lacks : 0);
    for (uint32_t i = 0; i < d->segment_count; i++) {
        const pbc_segment_decl *s = &d->segments[i];
        pbc_wire_put_u32(b, s->SegmentId);
        pbc_wire_put_u32(b, s->kind);
        pbc_wire_put_u64(b, s->base);
        pbc_wire_put_u64(b, s->size);
        pbc_wire_put_u32(b, s->cpu_visible);
        pbc_wire_put_u32(b, s->cache_coherent);
    }
}

/* The traps a description's hooks point at: pbcheck's own process never
 * runs a library's code, so reaching one is pbcheck's bug. */
_Noreturn static void trap(const char *hook)
{
    pbc_harness_bug("a library target's %s was called in pbcheck's own process (it runs only in workers)", hook);
}
static NTSTATUS trap_create_adapter(const pbc_adapter_info *i, HANDLE *a) { (void)i, (void)a; trap("create_adapter"); }
static void trap_destroy_adapter(HANDLE a) { (void)a; trap("destroy_adapter"); }
static NTSTATUS trap_create_allocation(HANDLE a, const pbc_allocation_info *i, HANDLE *h)
{
    (void)a, (void)i, (void)h;
    trap("create_allocation");
}
static void trap_destroy_allocation(HANDLE a, HANDLE h) { (void)a, (void)h; trap("destroy_allocation"); }
static NTSTATUS APIENTRY trap_build(IN_CONST_HANDLE a, IN_PDXGKARG_BUILDPAGINGBUFFER b)
{
    (void)a, (void)b;
    trap("BuildPagingBuffer");
}
static NTSTATUS APIENTRY trap_patch(IN_CONST_HANDLE a, IN_CONST_PDXGKARG_PATCH p) { (void)a, (void)p; trap("Patch"); }
static NTSTATUS APIENTRY trap_submit(IN_CONST_HANDLE a, IN_CONST_PDXGKARG_SUBMITCOMMAND s)
{
    (void)a, (void)s;
    trap("SubmitCommand");
}
static int trap_gart_view(HANDLE a, UINT s, uint64_t i, pbc_gart_view *o) { (void)a, (void)s, (void)i, (void)o; trap("gart_view"); }
static uint32_t trap_context_data(HANDLE a, HANDLE h, void *b, uint32_t c)
{
    (void)a, (void)h, (void)b, (void)c;
    trap("context_update_data");
}
static pbc_decode_status trap_decode(const uint8_t *b, size_t n, pbc_uop *u, size_t *l, const char **w)
{
    (void)b, (void)n, (void)u, (void)l, (void)w;
    trap("ISA decoder");
}
static size_t trap_disasm(const uint8_t *b, size_t n, char *l, size_t s) { (void)b, (void)n, (void)l, (void)s; trap("disassembler"); }
static int trap_pte_decode(const uint8_t *e, uint32_t l, uint64_t *f, uint64_t *p) { (void)e, (void)l, (void)f, (void)p; trap("pte_decode"); }

/* The description read back into l, its strings made safe; 0, or -1
 * with why when the bytes are not exactly one description, or describe a
 * table pbc_exec_target_check refuses (the worker checked it, but the
 * worker is the builder's). */
static int undescribe(library_target *l, const uint8_t *bytes, size_t len, const char **why)
{
    pbc_wire_reader r = {bytes, len, 0, 0};
    pbc_target *t = &l->table;
    memset(t, 0, sizeof(*t));
    t->abi_version = PBC_TARGET_ABI_VERSION;
    t->struct_size = sizeof(*t);
    t->name = pbc_wire_get_text(&r, 0);
    t->summary = pbc_wire_get_text(&r, 0);
    t->min_dma_size = pbc_wire_get_u32(&r);
    t->private_data_size = pbc_wire_get_u32(&r);
    t->supported_operations = pbc_wire_get_u64(&r);
    uint32_t hooks = pbc_wire_get_u32(&r);
    t->create_adapter = trap_create_adapter;
    t->destroy_adapter = trap_destroy_adapter;
    t->create_allocation = trap_create_allocation;
    t->destroy_allocation = trap_destroy_allocation;
    t->build_paging_buffer = trap_build;
    t->patch = trap_patch;
    t->submit_command = trap_submit;
    t->gart_view = hooks & 1 ? trap_gart_view : NULL;
    t->context_update_data = hooks & 2 ? trap_context_data : NULL;
    memset(&l->isa, 0, sizeof(l->isa));
    l->isa.abi_version = PBC_ISA_ABI_VERSION;
    l->isa.name = pbc_wire_get_text(&r, 0);
    l->isa.struct_size = sizeof(l->isa); /* the entry size and levels below are with defaults applied */
    l->isa.pte_size = pbc_wire_get_u32(&r);
    l->isa.pt_levels = pbc_wire_get_u32(&r);
    l->isa.pte_decode = pbc_wire_get_u32(&r) ? trap_pte_decode : NULL;
    l->isa.decode = trap_decode;
    l->isa.disasm = trap_disasm;
    t->isa = &l->isa;
    if (pbc_wire_get_u32(&r)) {
        pbc_adapter_decl *d = &l->adapter;
        d->struct_size = sizeof(*d);
        d->segment_count = pbc_wire_get_u32(&r);
        d->paging_buffer_size = pbc_wire_get_u32(&r);
        d->page_table_update = pbc_wire_get_u32(&r);
        d->gpummu_lacks = pbc_wire_get_u32(&r);
        if (d->segment_count > 8)
            r.bad = 1;
        for (uint32_t i = 0; i < d->segment_count; i++) {
            pbc_segment_decl *s = &l->segments[i];
            s->SegmentId = pbc_wire_get_u32(&r);
            s->kind = pbc_wire_get_u32(&r);
            s->base = pbc_wire_get_u64(&r);
            s->size = pbc_wire_get_u64(&r);
            s->cpu_visible = pbc_wire_get_u32(&r);
            s->cache_coherent = pbc_wire_get_u32(&r);
        }
        d->segments = l->segments;
        t->adapter = d;
    }
    l->strings[0] = (char *)t->name;
    l->strings[1] = (char *)t->summary;
    l->strings[2] = (char *)l->isa.name;
    *why = !pbc_wire_done(&r) || !t->name || !l->isa.name ? "not one target description"
                                                                : pbc_exec_target_check(t);
    return *why ? -1 : 0;
}

/* ---- the probe ------------------------------------------------------------ */

enum { PROBE_TARGET = 1, PROBE_NOT_TARGET = 2 };

/* In the probing worker: load, check, describe. */
static uint8_t *probe_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    (void)ctx;
    pbc_wire_reader in = {job, len, 0};
    char *path = pbc_wire_get_str(&in);
    pbc_wire_buf out = {0};
    pbc_target t;
    char why[PATH_MAX + 1024];
    if (library_load(path, &t, why, sizeof(why)) == 0) {
        pbc_wire_put_u32(&out, PROBE_TARGET);
        describe(&t, &out);
    } else {
        pbc_wire_put_u32(&out, PROBE_NOT_TARGET);
        pbc_wire_put_str(&out, why);
    }
    free(path);
    *answer_len = out.n;
    return out.p;
}

static library_target *library_find(const char *path)
{
    for (uint32_t i = 0; i < library_count; i++)
        if (!strcmp(libraries[i]->path, path))
            return libraries[i];
    return NULL;
}

static const pbc_target *library_probe(const char *path, const pbc_iso_limits *limits, pbc_exec_load *load,
                                       char *why, size_t why_size)
{
    library_target *known = library_find(path);
    if (known)
        return &known->table;
    pbc_iso_limits lim = *limits;
    lim.batch = 1;
    lim.capture = PBC_ISO_CAPTURE_ALL;
    pbc_iso *iso = pbc_iso_create(&lim, probe_job, NULL);
    pbc_wire_buf job = {0};
    pbc_wire_put_str(&job, path);
    pbc_iso_result r;
    pbc_iso_run(iso, job.p, job.n, &r);
    free(job.p);
    const pbc_target *t = NULL;
    library_target *l = NULL;
    pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
    uint32_t kind = r.cls == PBC_ISO_OK ? pbc_wire_get_u32(&in) : 0;
    if (r.cls == PBC_ISO_OK && kind == PROBE_TARGET) {
        const char *bad;
        l = pbc_xcalloc(1, sizeof(*l));
        l->described_len = r.answer_len - in.at;
        l->described = pbc_xmalloc(l->described_len + 1);
        memcpy(l->described, r.answer + in.at, l->described_len);
        if (undescribe(l, l->described, l->described_len, &bad)) {
            char what[160];
            snprintf(what, sizeof(what), "the target description: %s", bad);
            pbc_iso_reject(iso, &r, what);
            for (size_t i = 0; i < PBC_ARRAY_LEN(l->strings); i++)
                free(l->strings[i]);
            free(l->described);
            free(l);
            l = NULL;
        }
    } else if (r.cls == PBC_ISO_OK && kind != PROBE_NOT_TARGET) {
        pbc_iso_reject(iso, &r, "the probe's answer is neither a target nor a refusal");
    }
    pbc_iso_destroy(iso);
    if (r.cls != PBC_ISO_OK) {
        load->failed = 1;
        load->cls = r.cls;
        snprintf(load->detail, sizeof(load->detail), "%s", r.detail);
        load->output = r.output;
        r.output = NULL;
        snprintf(why, why_size, "target '%s' could not be loaded: %s: %s", path, pbc_iso_class_name(r.cls), r.detail);
    } else if (l) {
        l->path = pbc_xstrdup(path);
        PBC_PUSH(libraries, library_count, library_cap, l);
        if (!targets_split) /* workers load it, not us */
            pbc_iso_set_worker_init(pbc_exec_targets_load_here);
        else
            pbc_exec_targets_split();
        t = &l->table;
    } else {
        char *text = pbc_wire_get_text(&in, 0);
        snprintf(why, why_size, "%s", text ? text : "not a pbcheck target");
        free(text);
    }
    pbc_iso_result_fini(&r);
    return t;
}

const pbc_target *pbc_exec_target_open(const char *name, const pbc_iso_limits *limits, pbc_exec_load *load,
                                       char *why, size_t why_size)
{
    memset(load, 0, sizeof(*load));
    /* A library's workers split unless PBCHECK_SPLIT=0 asks for the judge
     * beside the builder (faster, and not a certificate: docs/architecture.md). */
    const char *split = getenv("PBCHECK_SPLIT");
    if (!split || strcmp(split, "0"))
        targets_split = 1;
    if (pbc_exec_target_is_path(name))
        return library_probe(name, limits, load, why, why_size);
    const pbc_target *t = pbc_target_find(name);
    if (!t) {
        snprintf(why, why_size, "unknown target '%s' (see 'pbcheck list targets')", name);
        return NULL;
    }
    const char *bad = pbc_exec_target_check(t);
    if (bad) {
        snprintf(why, why_size, "target '%s' is unusable: %s", name, bad);
        return NULL;
    }
    return t;
}

void pbc_exec_load_fini(pbc_exec_load *load)
{
    free(load->output);
    load->output = NULL;
}

void pbc_exec_targets_load_here(void)
{
    for (uint32_t i = 0; i < library_count; i++) {
        library_target *l = libraries[i];
        if (l->loaded_here)
            continue;
        pbc_target t;
        char why[PATH_MAX + 1024];
        if (library_load(l->path, &t, why, sizeof(why))) {
            fprintf(stderr, "pbcheck: worker: %s\n", why);
            fflush(stderr);
            _exit(PBC_ISO_INIT_EXIT);
        }
        pbc_wire_buf again = {0};
        describe(&t, &again);
        if (again.n != l->described_len || memcmp(again.p, l->described, again.n)) {
            fprintf(stderr, "pbcheck: worker: target '%s' describes itself differently from when it was first "
                    "loaded (its pbc_target_get is not deterministic)\n", l->path);
            fflush(stderr);
            _exit(PBC_ISO_INIT_EXIT);
        }
        free(again.p);
        l->table = t;
        l->loaded_here = 1;
    }
}

/* The driver process's exit(): the builder's end, as it says, without
 * what a sanitizer build would add at exit (LeakSanitizer's report of
 * the builder's memory would turn exit status 0 into a crash). */
static void driver_exit(int status, void *arg)
{
    (void)arg;
    fflush(NULL);
    _exit(status);
}

/* The worker's start when workers split (pbc_exec_targets_split): the
 * driver process is forked before anything of the vendor's is loaded,
 * takes its own seccomp layer, loads the libraries and serves; the worker
 * keeps the descriptions, whose hooks become the proxies. */
static void targets_split_here(void)
{
    if (pbc_ddi_prepare()) {
        fprintf(stderr, "pbcheck: worker: no memory to share with a driver process: %s\n", strerror(errno));
        fflush(stderr);
        _exit(PBC_ISO_INIT_EXIT);
    }
    pid_t worker = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "pbcheck: worker: no driver process: %s\n", strerror(errno));
        fflush(stderr);
        _exit(PBC_ISO_INIT_EXIT);
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != worker)
            _exit(0);
        pbc_ddi_driver_fds(); /* the spawner's descriptor among those closed */
        pbc_decoder_driver_forget();
        if (pbc_sandbox_seccomp_available() && pbc_sandbox_seccomp_here()) {
            fprintf(stderr, "pbcheck: worker: the driver process's seccomp layer: %s\n", strerror(errno));
            fflush(stderr);
            _exit(PBC_ISO_INIT_EXIT);
        }
        on_exit(driver_exit, NULL);
        pbc_exec_targets_load_here();
        const pbc_target **tables = pbc_xcalloc(library_count ? library_count : 1, sizeof(*tables));
        for (uint32_t i = 0; i < library_count; i++)
            tables[i] = &libraries[i]->table;
        pbc_ddi_serve(tables, library_count);
    }
    pbc_ddi_judge(pid);
    pbc_iso_set_driver(pid);
    prctl(PR_SET_DUMPABLE, 0); /* no /proc/PID/mem of the judge's for the driver process */
    pbc_decoder_spawner_moved(pbc_iso_kept_fd());
    for (uint32_t i = 0; i < library_count; i++) {
        pbc_ddi_proxy(&libraries[i]->table, i);
        pbc_decoder_proxy(&libraries[i]->isa, libraries[i]->path, i);
        libraries[i]->loaded_here = 1;
    }
}

/* In a decoder process (ddi/decoder.h): the library loaded, its ISA
 * description checked as a worker's would be. */
static const pbc_isa *decoder_load(const char *path, char *why, size_t why_size)
{
    static pbc_target t;
    return library_load(path, &t, why, why_size) ? NULL : t.isa;
}

const char *pbc_exec_library_path(uint32_t index)
{
    static char abs[PATH_MAX];
    if (index >= library_count || !realpath(libraries[index]->path, abs))
        return NULL;
    return abs;
}

void pbc_exec_targets_split_on(void) { targets_split = 1; }

int pbc_exec_targets_split_active(void) { return targets_split; }

void pbc_exec_targets_split(void)
{
    /* Now, before any case: the spawner holds nothing of a judge's. */
    if (pbc_decoder_spawner_start(decoder_load)) {
        fprintf(stderr, "pbcheck: no spawner of decoder processes: %s\n", strerror(errno));
        exit(2);
    }
    pbc_iso_keep_fd(pbc_decoder_spawner_fd());
    pbc_iso_set_worker_split(1);
    pbc_iso_set_worker_init(targets_split_here);
}

static pbc_decoder_audit_result audit_last;
static int audit_done;

int pbc_exec_decoder_audit(pbc_decoder_audit_result *out)
{
    memset(out, 0, sizeof(*out));
    out->pure = 1;
    for (uint32_t i = 0; i < library_count && targets_split; i++) {
        if (libraries[i]->loaded_here)
            continue; /* --no-fork: its decoder ran here, asked nothing of a decoder process */
        pbc_decoder_audit_result one;
        pbc_decoder_audit(libraries[i]->path, i, &one);
        if (!out->ran || !one.pure)
            *out = one;
        if (!one.pure)
            break;
    }
    audit_last = *out;
    audit_done = 1;
    return out->pure;
}

const pbc_decoder_audit_result *pbc_exec_decoder_last(void) { return audit_done ? &audit_last : NULL; }

const pbc_target *pbc_exec_target_open_here(const char *name, char *why, size_t why_size)
{
    if (!pbc_exec_target_is_path(name)) {
        pbc_exec_load load;
        return pbc_exec_target_open(name, NULL, &load, why, why_size);
    }
    library_target *l = library_find(name);
    if (!l) {
        l = pbc_xcalloc(1, sizeof(*l));
        if (library_load(name, &l->table, why, why_size)) {
            free(l);
            return NULL;
        }
        l->path = pbc_xstrdup(name);
        l->loaded_here = 1;
        PBC_PUSH(libraries, library_count, library_cap, l);
    }
    return &l->table;
}

uint32_t pbc_exec_target_layout(const pbc_target *t, pbc_segment_info out[PBC_MAX_SEGMENTS])
{
    const pbc_adapter_decl *d = t->adapter;
    if (!d || !d->segment_count || d->segment_count > PBC_MAX_SEGMENTS)
        return 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        out[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                    d->segments[i].size};
    return d->segment_count;
}
