/*
 * Triage: classes, signatures and severities of failures, and the
 * simplifications the minimizer tries (triage.h).
 */
#include "triage/triage.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/safe.h"
#include "base/util.h"
#include "exec/isolate.h"
#include "exec/symbolize.h"

const char *pbc_triage_class_name(uint32_t cls)
{
    static const char *const names[] = {"sanitizer", "crash", "divergence", "rule", "timeout",
                                        "oom", "exit", "harness-bug", "no-repro", "invalid"};
    return cls < PBC_ARRAY_LEN(names) ? names[cls] : "?";
}

void pbc_triage_from_outcome(const pbc_outcome *out, const pbc_scenario *s, pbc_triage_facts *f)
{
    memset(f, 0, sizeof(*f));
    switch (out->verdict) {
    case PBC_VERDICT_PASS:
        f->cls = PBC_TRIAGE_NO_REPRO;
        return;
    case PBC_VERDICT_SKIP:
        f->cls = PBC_TRIAGE_INVALID;
        return;
    case PBC_VERDICT_HARNESS_BUG:
        f->cls = PBC_TRIAGE_HARNESS;
        snprintf(f->rule, sizeof(f->rule), "%s", out->rule);
        return;
    default:
        break;
    }
    snprintf(f->rule, sizeof(f->rule), "%s", out->rule);
    /* Rules about submissions, fences, the GPU or kernel services are
     * broken wherever the run happens to be when they are judged: the
     * operation then says nothing about the bug. */
    static const char *const anywhere[] = {"PB-FENCE",    "PB-PATCH",  "PB-EXEC-RANGE", "PB-DMA-SUBMITTED",
                                           "PB-GPU-FAULT", "PB-KERNEL", "PB-NONDET",     "PB-ASSERT"};
    int placed = 1;
    for (size_t i = 0; i < PBC_ARRAY_LEN(anywhere); i++)
        placed &= strcmp(out->rule, anywhere[i]) != 0;
    if (placed && out->op < s->op_count)
        snprintf(f->operation, sizeof(f->operation), "%s", pbc_sop_name(s->ops[out->op].kind));
    pbc_triage_ddi_field(out->rule, out->shape.region, f->ddi, sizeof(f->ddi));
    if (strcmp(out->rule, "PB-DIVERGE")) {
        f->cls = PBC_TRIAGE_RULE;
        /* A fault of a paging buffer's packet: a packet's wrong address
         * that landed nowhere, where a divergence is one that landed in
         * memory (the root cause joins the two). */
        if (!strcmp(out->rule, "PB-GPU-FAULT") && strstr(out->message, " in buffer "))
            snprintf(f->writer, sizeof(f->writer), "packet");
        return;
    }
    f->cls = PBC_TRIAGE_DIVERGE;
    snprintf(f->region, sizeof(f->region), "%s", out->shape.region);
    snprintf(f->writer, sizeof(f->writer), "%s", out->shape.writer);
    if (out->shape.subs)
        snprintf(f->shape, sizeof(f->shape), "%s", out->shape.passes > 1 ? "resumed" : "one-pass");
}

void pbc_triage_ddi_field(const char *rule, const char *region, char *buf, size_t size)
{
    /* What each rule judges of a call: a field it returned, or what it
     * did with the buffer, the GART, memory (PB-DIVERGE: below). */
    static const struct {
        const char *rule, *ddi, *field;
    } judged[] = {
        {"PB-DMA-OVERRUN", "BuildPagingBuffer", "bytes written outside pDmaBuffer"},
        {"PB-DMA-ADVANCE", "BuildPagingBuffer", "pDmaBuffer returned"},
        {"PB-STATUS", "BuildPagingBuffer", "status returned"},
        {"PB-BUSY-IDLE", "BuildPagingBuffer", "ALLOCATION_BUSY returned while idle"},
        {"PB-BUSY-CONSUMED", "BuildPagingBuffer", "pDmaBuffer returned with ALLOCATION_BUSY"},
        {"PB-NO-PROGRESS", "BuildPagingBuffer", "INSUFFICIENT_DMA_BUFFER on a fresh buffer"},
        {"PB-LIVELOCK", "BuildPagingBuffer", "MultipassOffset returned"},
        {"PB-PATCH", "Patch", "bytes changed"},
        {"PB-EXEC-RANGE", "SubmitCommand", "range handed to the GPU"},
        {"PB-FENCE", "SubmitCommand", "fence written"},
        {"PB-DMA-SUBMITTED", "SubmitCommand", "submitted bytes changed"},
        {"PB-GPU-FAULT", "BuildPagingBuffer", "an address in a packet"},
        {"PB-UNMAP-DUMMY", "BuildPagingBuffer", "DummyPage in the GART"},
        {"PB-IDLE-HAZARD", "BuildPagingBuffer", "CPU access to a busy allocation"},
        {"PB-PHYSICAL", "BuildPagingBuffer", "the physical access"},
        {"PB-PTE", "BuildPagingBuffer", "page-table entries written"},
        {"PB-PAGING-FENCE", "BuildPagingBuffer", "MonitoredFenceValue written"},
        {"PB-TLB", "BuildPagingBuffer", "translations flushed"},
    };
    buf[0] = 0;
    const char *ddi = "BuildPagingBuffer", *field = NULL;
    /* A divergence: what the builder's work left in memory, wrong or
     * missing (a page skipped and a page written wrong are often one
     * bug), in segments and system memory alike; GART entries apart. */
    if (!strcmp(rule, "PB-DIVERGE"))
        field = !strcmp(region, "gart") ? "GART entries written" : "memory written";
    for (size_t i = 0; i < PBC_ARRAY_LEN(judged) && !field; i++)
        if (!strcmp(rule, judged[i].rule)) {
            ddi = judged[i].ddi;
            field = judged[i].field;
        }
    if (field)
        snprintf(buf, size, "%s: %s", ddi, field);
}

void pbc_triage_ddi_location(const pbc_target *t, pbc_triage_facts *f)
{
    if (f->location[0] || (f->cls != PBC_TRIAGE_DIVERGE && f->cls != PBC_TRIAGE_RULE))
        return;
    /* The DDI the rule judges: Patch's and SubmitCommand's own rules, else
     * BuildPagingBuffer, which emits the packets. */
    const void *fn = (const void *)t->build_paging_buffer;
    if (!strcmp(f->rule, "PB-PATCH"))
        fn = (const void *)t->patch;
    else if (!strcmp(f->rule, "PB-EXEC-RANGE") || !strcmp(f->rule, "PB-FENCE") ||
             !strcmp(f->rule, "PB-DMA-SUBMITTED"))
        fn = (const void *)t->submit_command;
    /* Reading debug information takes a while: once per function in a
     * worker's life. */
    static struct {
        const void *fn;
        char where[256];
    } known[4];
    for (size_t i = 0; i < PBC_ARRAY_LEN(known); i++) {
        if (known[i].fn == fn) {
            snprintf(f->location, sizeof(f->location), "%s", known[i].where);
            return;
        }
        if (known[i].fn)
            continue;
        pbc_sym sym;
        if (pbc_sym_address(fn, &sym) || strstr(sym.where, "??"))
            sym.where[0] = 0;
        known[i].fn = fn;
        snprintf(known[i].where, sizeof(known[i].where), "%.*s", (int)strcspn(sym.where, " ("), sym.where);
        snprintf(f->location, sizeof(f->location), "%s", known[i].where);
        return;
    }
}

static int member_safe(const char *s, size_t size) { return memchr(s, 0, size) && pbc_safe_is_text(s, 0); }

int pbc_triage_facts_check(const pbc_triage_facts *f)
{
#define PBC_FACT_OK(m) member_safe(f->m, sizeof(f->m))
    int ok = f->cls < PBC_TRIAGE_CLASS_COUNT && PBC_FACT_OK(rule) && PBC_FACT_OK(operation) && PBC_FACT_OK(region) &&
             PBC_FACT_OK(writer) && PBC_FACT_OK(shape) && PBC_FACT_OK(kind) && PBC_FACT_OK(access) &&
             PBC_FACT_OK(location) && PBC_FACT_OK(ddi);
    for (uint32_t i = 0; i < PBC_TRIAGE_FRAMES; i++)
        ok &= PBC_FACT_OK(frames[i]);
#undef PBC_FACT_OK
    return ok ? 0 : -1;
}

/* ---- Reports of workers that did not answer ---- */

/* Whether a frame (its function, and its file or module, either may be
 * "") is pbcheck's, a sanitizer runtime's or the C library's rather than
 * the builder's. By file: pbcheck's own sources by their room folders,
 * the runtimes by their libraries. By function name only where nothing
 * else names it (a frame of the pbcheck executable without debug
 * information): pbcheck's functions by their prefixes. */
static int foreign_frame(const char *fn, const char *where, const char *own_module)
{
    if (own_module && own_module[0] && where[0]) {
        const char *base = strrchr(own_module, '/');
        base = base ? base + 1 : own_module;
        if (strstr(where, own_module) || strstr(where, base))
            return 0;
    }
    static const char *const foreign_paths[] = {
        "/harness/base/", "/harness/gpu/",    "/harness/scenario/", "/harness/kernel/", "/harness/rules/",
        "/harness/oracle/", "/harness/vidmm/", "/harness/exec/",     "/harness/report/", "/cli/cmd_",
        "/cli/main.c",    "/cli/options.c",  "/fuzz/fuzz_",        "/fuzz/mutate.c",   "compiler-rt",
        "libclang_rt",    "libc.so",         "/libc-",             "glibc",            "/csu/",
        "/sysdeps/",
        "ld-linux",       "libgcc_s",        "libstdc++",          "libxxhash",        "libjansson"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(foreign_paths); i++)
        if (strstr(where, foreign_paths[i]))
            return 1;
    if (!fn[0] || !strcmp(fn, "??"))
        return 1; /* nothing to name it by */
    /* backtrace: the C library's, which a sanitizer build interposes in
     * pbcheck's own executable (the worker's fault handler calls it). */
    static const char *const runtime_names[] = {"__libc", "__asan", "__ubsan", "__sanitizer", "__interceptor",
                                                "_start", "__GI_", "__cxa_", "backtrace"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(runtime_names); i++)
        if (!strncmp(fn, runtime_names[i], strlen(runtime_names[i])))
            return 1; /* the C library's and the sanitizers' own, wherever they say they are */
    const char *module = strrchr(where, '/');
    module = module ? module + 1 : where;
    if (where[0] && strncmp(module, "pbcheck", 7) && strcmp(where, "/proc/self/exe"))
        return 0; /* a file or module of its own (pbcheck's --jobs processes run as /proc/self/exe) */
    static const char *const foreign_names[] = {"pbc_", "vm_", "gpu_", "iso_", "__asan", "__ubsan", "__sanitizer",
                                                "__interceptor", "__libc", "_start", "main", "worker_",
                                                "certify_", "tri_", "LLVMFuzzer", "fuzzer::", "raise",
                                                "abort", "__GI_", "backtrace", "run_job", "on_fatal"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(foreign_names); i++)
        if (!strncmp(fn, foreign_names[i], strlen(foreign_names[i])))
            return 1;
    /* In pbcheck itself, unnamed by a file: the built-in builders' code
     * (targets/, reference/) is the only code there not named above; a
     * library target's frames are named by its module. */
    return own_module && own_module[0];
}

/* Parses one backtrace line into its function and file-or-module; 0 when
 * it is not a frame. Forms: sanitizers' "#N 0xADDR in FN FILE:LINE:COL"
 * or "#N 0xADDR in FN (MODULE+0xOFF)", the worker's symbolized
 * "FN at FILE:LINE (MODULE+0xOFF)" and glibc's "MODULE(FN+0xOFF) [0xADDR]"
 * (a module path may hold spaces and parentheses). */
static int parse_frame(const char *line, char *fn, size_t fn_size, char *where, size_t where_size)
{
    while (*line == ' ' || *line == '\t')
        line++;
    fn[0] = where[0] = 0;
    size_t len = strlen(line);
    const char *in = NULL;
    if (line[0] == '#' && isdigit((unsigned char)line[1]) && (in = strstr(line, " in "))) {
        in += 4;
        size_t n = strcspn(in, " ");
        snprintf(fn, fn_size, "%.*s", (int)n, in);
        const char *rest = in + n;
        while (*rest == ' ')
            rest++;
        size_t rn = strlen(rest);
        if (rn && rest[0] == '(' && rest[rn - 1] == ')') { /* (MODULE+0xOFF) */
            rest++;
            rn -= 2;
        }
        snprintf(where, where_size, "%.*s", (int)rn, rest);
        return fn[0] != 0;
    }
    const char *bracket = NULL;
    for (const char *p = line; (p = strstr(p, "[0x")); p++)
        bracket = p;
    if (bracket && bracket > line && bracket[-1] == ' ')
        bracket--;
    if (bracket && bracket > line && bracket[-1] == ')') { /* glibc: MODULE(FN+0xOFF)[0xADDR] */
        const char *close = bracket - 1, *open = close;
        while (open > line && *open != '(')
            open--;
        if (*open != '(')
            return 0;
        snprintf(where, where_size, "%.*s", (int)(open - line), line);
        size_t n = strcspn(open + 1, "+)");
        snprintf(fn, fn_size, "%.*s", (int)n, open + 1);
        return 1;
    }
    const char *at = strstr(line, " at ");
    if (at && at > line && !memchr(line, ' ', (size_t)(at - line)) && strchr(at + 4, ':')) {
        snprintf(fn, fn_size, "%.*s", (int)(at - line), line);
        snprintf(where, where_size, "%.*s", (int)(len - (size_t)(at + 4 - line)), at + 4);
        return 1;
    }
    return 0;
}

/* "FILE:LINE" of a frame's file part (sanitizer "FILE:LINE:COL", or the
 * worker's "FILE:LINE (MODULE+0xOFF)"), "FILE" when the line is unknown
 * ("FILE:?", a library without line tables), or "" when it has none. */
static void frame_location(const char *where, char *buf, size_t size)
{
    buf[0] = 0;
    size_t n = strcspn(where, " (");
    const char *colon = memchr(where, ':', n);
    if (colon && colon[1] == '?' && colon > where) {
        snprintf(buf, size, "%.*s", (int)(colon - where), where);
        return;
    }
    if (!colon || !isdigit((unsigned char)colon[1]))
        return;
    const char *end = colon + 1;
    while (isdigit((unsigned char)*end))
        end++;
    snprintf(buf, size, "%.*s", (int)(end - where), where);
}

/* The words of a sanitizer's error kind up to the first that holds a
 * digit (an address, a size): "heap-buffer-overflow", "signed integer
 * overflow". */
static void kind_words(const char *from, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    while (*from && *from != '\n') {
        while (*from == ' ')
            from++;
        size_t w = strcspn(from, " \n");
        int digits = 0, last = w && from[w - 1] == ':';
        for (size_t i = 0; i + last < w; i++)
            digits |= isdigit((unsigned char)from[i]) || from[i] == ':' || from[i] == '\'';
        static const char *const stop[] = {"on", "at", "in", "for", "of", "by", "to", "from"};
        for (size_t i = 0; i < PBC_ARRAY_LEN(stop); i++)
            digits |= w == strlen(stop[i]) && !strncmp(from, stop[i], w);
        if (!w || digits || n + w + 2 >= size)
            break;
        n += (size_t)snprintf(buf + n, size - n, "%s%.*s", n ? " " : "", (int)(w - (size_t)last), from);
        if (last)
            break;
        from += w;
    }
}

void pbc_triage_from_isolation(const char *iso_class, const char *detail, const char *output,
                               const char *own_module, pbc_triage_facts *f)
{
    memset(f, 0, sizeof(*f));
    static const struct {
        const char *name;
        uint32_t cls;
    } classes[] = {{"crash", PBC_TRIAGE_CRASH}, {"exit", PBC_TRIAGE_EXIT},       {"timeout", PBC_TRIAGE_TIMEOUT},
                   {"oom", PBC_TRIAGE_OOM},     {"harness-bug", PBC_TRIAGE_HARNESS}};
    f->cls = PBC_TRIAGE_CRASH;
    for (size_t i = 0; i < PBC_ARRAY_LEN(classes); i++)
        if (!strcmp(iso_class, classes[i].name))
            f->cls = classes[i].cls;
    const char *text = output ? output : "";
    const char *err = strstr(text, "ERROR: "), *ub = strstr(text, "runtime error: ");
    if (f->cls == PBC_TRIAGE_CRASH && err && strstr(err, "Sanitizer: ")) {
        f->cls = PBC_TRIAGE_SANITIZER;
        kind_words(strstr(err, "Sanitizer: ") + 11, f->kind, sizeof(f->kind));
        /* "READ of size N" / "WRITE of size N", or for a SEGV "The signal
         * is caused by a READ memory access." */
        static const char caused[] = "The signal is caused by a ";
        const char *read = strstr(err, "\nREAD of size"), *write = strstr(err, "\nWRITE of size"),
                   *signal = strstr(err, caused);
        if (signal) {
            signal += sizeof(caused) - 1;
            read = !strncmp(signal, "READ", 4) ? signal : read;
            write = !strncmp(signal, "WRITE", 5) ? signal : write;
        }
        snprintf(f->access, sizeof(f->access), "%s", write && (!read || write < read) ? "WRITE" : read ? "READ" : "");
    } else if (f->cls == PBC_TRIAGE_CRASH && ub) {
        f->cls = PBC_TRIAGE_SANITIZER;
        char words[48];
        kind_words(ub + 15, words, sizeof(words));
        snprintf(f->kind, sizeof(f->kind), "undefined: %s", words);
    } else if (f->cls == PBC_TRIAGE_CRASH && detail) {
        snprintf(f->kind, sizeof(f->kind), "%.*s", (int)strcspn(detail, " ("), detail);
    }
    if (f->cls == PBC_TRIAGE_HARNESS || f->cls == PBC_TRIAGE_TIMEOUT || f->cls == PBC_TRIAGE_OOM)
        return; /* where a hang or a runaway allocation stopped says nothing stable */
    /* The first stack of the report (the error's, not where memory was
     * allocated or freed), the builder's own frames in order. */
    uint32_t n = 0;
    int in_stack = 0;
    for (const char *line = err ? err : text; *line && n < PBC_TRIAGE_FRAMES;) {
        char fn[256], where[512];
        size_t len = strcspn(line, "\n");
        char one[1024];
        snprintf(one, sizeof(one), "%.*s", (int)(len < sizeof(one) ? len : sizeof(one) - 1), line);
        if (parse_frame(one, fn, sizeof(fn), where, sizeof(where))) {
            in_stack = 1;
            if (!foreign_frame(fn, where, own_module)) {
                snprintf(f->frames[n], sizeof(f->frames[n]), "%s", fn);
                if (n == 0)
                    frame_location(where, f->location, sizeof(f->location));
                n++;
            }
        } else if (in_stack) {
            break; /* the error's stack has ended; what follows (where memory was allocated) is not it */
        }
        line += len + (line[len] == '\n');
    }
}

/* ---- Signatures, severity, titles ---- */

uint64_t pbc_triage_signature(const pbc_triage_facts *f, char *buf, size_t size)
{
    snprintf(buf, size, "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s", pbc_triage_class_name(f->cls), f->rule, f->operation,
             f->region, f->shape, f->kind, f->access, f->frames[0], f->frames[1], f->frames[2]);
    return XXH3_64bits(buf, strlen(buf));
}

uint64_t pbc_triage_root_cause(const pbc_triage_facts *f, char *buf, size_t size)
{
    int memory = f->cls == PBC_TRIAGE_DIVERGE || (f->cls == PBC_TRIAGE_RULE && !strcmp(f->rule, "PB-GPU-FAULT"));
    if (memory)
        snprintf(buf, size, "memory|%s|%s|%s|%s", f->writer[0] ? f->writer : "?", f->frames[0], f->frames[1],
                 f->frames[2]);
    else
        snprintf(buf, size, "%s|%s|%s|%s|%s|%s|%s", pbc_triage_class_name(f->cls), f->rule, f->kind, f->access,
                 f->frames[0], f->frames[1], f->frames[2]);
    return XXH3_64bits(buf, strlen(buf));
}

const char *pbc_triage_severity_class(int severity)
{
    return severity <= 1 ? "critical" : severity == 2 ? "high" : severity == 3 ? "medium" : severity <= 6 ? "low"
         : severity == 7 ? "harness" : "none";
}

int pbc_triage_severity(const pbc_triage_facts *f)
{
    switch (f->cls) {
    case PBC_TRIAGE_SANITIZER:
        return strcmp(f->access, "WRITE") ? 1 : 0;
    case PBC_TRIAGE_CRASH:
        return 1;
    case PBC_TRIAGE_DIVERGE:
        return 2;
    case PBC_TRIAGE_RULE:
        return 3;
    case PBC_TRIAGE_TIMEOUT:
        return 4;
    case PBC_TRIAGE_OOM:
        return 5;
    case PBC_TRIAGE_EXIT:
        return 6;
    case PBC_TRIAGE_HARNESS:
        return 7;
    case PBC_TRIAGE_NO_REPRO:
        return 8;
    default:
        return 9;
    }
}

void pbc_triage_title(const pbc_triage_facts *f, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s", pbc_triage_class_name(f->cls));
#define TITLE_ADD(...)                                                   \
    do {                                                                 \
        if (n < size)                                                    \
            n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);       \
    } while (0)
    if (f->rule[0])
        TITLE_ADD(" %s", f->rule);
    if (f->kind[0])
        TITLE_ADD(" %s", f->kind);
    if (f->access[0])
        TITLE_ADD(" (%s)", f->access);
    if (f->operation[0])
        TITLE_ADD(" in %s", f->operation);
    if (f->region[0])
        TITLE_ADD(": %s", !strcmp(f->region, "gart") ? "GART entry" : !strcmp(f->region, "faults") ? "GPU faults"
                                                                                                     : f->region);
    if (f->region[0] && strcmp(f->region, "gart") && strcmp(f->region, "faults"))
        TITLE_ADD(" memory last written by %s", f->writer[0] ? f->writer : "?");
    if (f->shape[0])
        TITLE_ADD(" (%s)", f->shape);
    if (f->frames[0][0])
        TITLE_ADD(" at %s", f->frames[0]);
#undef TITLE_ADD
}

/* ---- Minimization ---- */

void pbc_triage_copy(pbc_scenario *d, const pbc_scenario *s)
{
    *d = *s;
    d->alloc_cap = s->alloc_count ? s->alloc_count : 1;
    d->op_cap = s->op_count ? s->op_count : 1;
    d->allocs = pbc_xmalloc(d->alloc_cap * sizeof(*d->allocs));
    d->ops = pbc_xmalloc(d->op_cap * sizeof(*d->ops));
    memcpy(d->allocs, s->allocs, s->alloc_count * sizeof(*s->allocs));
    memcpy(d->ops, s->ops, s->op_count * sizeof(*s->ops));
}

static int named(const pbc_scenario *s, uint32_t a)
{
    for (uint32_t i = 0; i < s->op_count; i++)
        if (pbc_sop_has_alloc(s->ops[i].kind) && s->ops[i].alloc == a)
            return 1;
    return 0;
}

/* Candidates of one family: the i-th change it makes to o (a copy), or
 * 0 when it has no i-th. */
typedef int (*simplify_fn)(const pbc_scenario *s, uint32_t i, pbc_scenario *o);

static int drop_op(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i >= s->op_count)
        return 0;
    uint32_t k = s->op_count - 1 - i; /* the last first: later operations depend on earlier ones */
    memmove(&o->ops[k], &o->ops[k + 1], (o->op_count - k - 1) * sizeof(*o->ops));
    o->op_count--;
    return 1;
}

static int drop_alloc(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i >= s->alloc_count || s->alloc_count == 1 || named(s, i))
        return i < s->alloc_count ? -1 : 0;
    memmove(&o->allocs[i], &o->allocs[i + 1], (o->alloc_count - i - 1) * sizeof(*o->allocs));
    o->alloc_count--;
    for (uint32_t k = 0; k < o->op_count; k++)
        if (pbc_sop_has_alloc(o->ops[k].kind) && o->ops[k].alloc > i)
            o->ops[k].alloc--;
    return 1;
}

static int fewer_splits(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i >= s->op_count)
        return 0;
    if (s->ops[i].split <= 1)
        return -1;
    o->ops[i].split = s->ops[i].split > 2 ? s->ops[i].split / 2 : 1;
    return 1;
}

static int smaller_alloc(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i >= s->alloc_count)
        return 0;
    uint64_t size = s->allocs[i].size;
    if (size <= PBC_PAGE_SIZE)
        return -1;
    uint64_t half = (size / 2 + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    o->allocs[i].size = half < size ? half : PBC_PAGE_SIZE;
    return 1;
}

static int smaller_access(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i >= s->op_count)
        return 0;
    pbc_sop *op = &o->ops[i];
    int render = op->kind == PBC_SOP_RENDER_WRITE || op->kind == PBC_SOP_RENDER_READ;
    int gpu = op->kind == PBC_SOP_GPU_READ || op->kind == PBC_SOP_GPU_WRITE;
    if ((!render && !gpu) || (op->size <= 4 && op->offset == 0))
        return -1;
    if (op->offset)
        op->offset = 0;
    else
        op->size = op->size / 2 >= 4 ? op->size / 2 / 4 * 4 : 4;
    return 1;
}

static int toward_zero(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i < s->op_count) {
        pbc_sop *op = &o->ops[i];
        if (op->at.segment == 0 || op->at.offset == 0 || op->kind == PBC_SOP_DMA)
            return -1;
        op->at.offset = 0;
        return 1;
    }
    i -= s->op_count;
    if (i >= s->alloc_count)
        return 0;
    pbc_salloc *a = &o->allocs[i];
    if (a->where == PBC_WHERE_SEGMENT && a->at.offset) {
        a->at.offset = 0;
        return 1;
    }
    if (a->mdl_offset || a->phys != PBC_PHYS_SCATTERED || (a->flags & PBC_ALLOC_NEEDS_IDLE)) {
        a->mdl_offset = 0;
        a->phys = PBC_PHYS_SCATTERED;
        a->flags &= ~(uint32_t)PBC_ALLOC_NEEDS_IDLE;
        return 1;
    }
    return -1;
}

static int simpler_world(const pbc_scenario *s, uint32_t i, pbc_scenario *o)
{
    if (i == 0) {
        int changed = 0;
        for (uint32_t k = 0; k < o->op_count; k++)
            if (o->ops[k].kind == PBC_SOP_DMA && o->ops[k].dma_size) {
                o->ops[k].dma_size = 0;
                changed = 1;
            }
        return changed ? 1 : -1;
    }
    if (i == 1) {
        pbc_scenario d;
        pbc_scenario_init(&d);
        pbc_scenario_default_layout(&d);
        int same = d.segment_count == s->segment_count &&
                   !memcmp(d.segments, s->segments, d.segment_count * sizeof(d.segments[0]));
        memcpy(o->segments, d.segments, sizeof(d.segments));
        o->segment_count = d.segment_count;
        pbc_scenario_fini(&d);
        return same ? -1 : 1;
    }
    return 0;
}

int pbc_triage_simplify(const pbc_scenario *s, uint32_t k, pbc_scenario *out)
{
    static const simplify_fn families[] = {drop_op,        drop_alloc,  fewer_splits, smaller_alloc,
                                           smaller_access, toward_zero, simpler_world};
    for (size_t f = 0; f < PBC_ARRAY_LEN(families); f++) {
        for (uint32_t i = 0;; i++) {
            pbc_triage_copy(out, s);
            int made = families[f](s, i, out);
            if (made == 1 && k-- == 0)
                return 0;
            pbc_scenario_fini(out);
            if (made == 0)
                break;
        }
    }
    return -1;
}

uint32_t pbc_triage_ddmin(uint8_t *data, size_t *n, int (*still)(void *ctx, const uint8_t *bytes, size_t n),
                          void *ctx, uint32_t budget)
{
    uint32_t calls = 0;
    uint8_t *cand = pbc_xmalloc(*n ? *n : 1);
    for (size_t chunk = *n / 2; chunk >= 1 && calls < budget;) {
        int removed = 0;
        for (size_t at = 0; at < *n && calls < budget;) {
            size_t len = chunk < *n - at ? chunk : *n - at;
            if (len == *n) { /* never the whole input */
                at += len;
                continue;
            }
            memcpy(cand, data, at);
            memcpy(cand + at, data + at + len, *n - at - len);
            calls++;
            if (still(ctx, cand, *n - len)) {
                memcpy(data, cand, *n - len);
                *n -= len;
                removed = 1; /* the same place now holds what followed */
            } else {
                at += len;
            }
        }
        if (!removed)
            chunk /= 2;
        else if (chunk > *n / 2)
            chunk = *n / 2 ? *n / 2 : 1;
    }
    free(cand);
    return calls;
}
