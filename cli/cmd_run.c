/*
 * pbcheck run and pbcheck disasm: text scenarios through a target.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "base/safe.h"
#include "ddi/decoder.h"
#include "ddi/link.h"
#include "exec/attribute.h"
#include "exec/child.h"
#include "exec/isolate.h"
#include "exec/runner.h"
#include "exec/target.h"
#include "report/text.h"

static const char run_about[] =
    "Runs each text scenario (.pbs, see docs/scenario-format.md) through the\n"
    "VidMm model against the target, and judges it: the target must break no\n"
    "protocol rule and leave the same observable memory as the reference\n"
    "builder, which is itself checked against the spec model. Prints one line\n"
    "per scenario, then 'run: N passed, N failed, N skipped'. A scenario the\n"
    "model cannot take (a layout it cannot build, an illegal operation, more\n"
    "than the 16 GiB of modeled memory written: docs/scenario-format.md,\n"
    "\"Limits\") is refused before it runs, as FILE:LINE:COL: why. With no\n"
    "SCENARIO it runs the seed corpus: PREFIX/share/pbcheck/seeds of an\n"
    "installed pbcheck, else the source tree's corpus/seeds.";

static const char disasm_about[] =
    "Runs the scenario against the target and prints every packet the GPU\n"
    "executes, one per line, decoded by the target's ISA decoder, grouped by\n"
    "submission (paging buffer, range and fence).";

typedef struct run_args {
    const pbc_target *target;
    int trace;
    uint32_t dma_size;
    int no_fork;
    double timeout;
    uint64_t memory;
    pbc_cli_args files;
} run_args;

/* run and disasm take the same options; verb picks the help's words. */
static int parse_run_args(const char *verb, int argc, char **argv, run_args *a)
{
    const char *target = NULL;
    uint64_t dma_size = 0, memory = PBC_DEFAULT_MEMORY_LIMIT;
    int trace = 0, no_fork = 0;
    double timeout = 60;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &target, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "reference", "builder to test ('pbcheck list targets')"},
        {"trace", PBC_OPT_FLAG, &trace, NULL, NULL, 0, 0, "off",
         "print every DDI call, status, submission, fence and fault"},
        {"dma-size", PBC_OPT_SIZE, &dma_size, "N", "a size", 1, 1u << 20,
         "each scenario's 'dma' operations", "give every paging buffer N bytes"},
        PBC_ISOLATION_OPTS(no_fork, timeout, memory, "60"),
        {NULL},
    };
    int is_run = !strcmp(verb, "run");
    const pbc_verb_spec spec = {
        .name = verb,
        .synopsis = is_run ? "[SCENARIO...] [OPTIONS]" : "SCENARIO [OPTIONS]",
        .about = is_run ? run_about : disasm_about,
        .example = is_run ? "pbcheck run corpus/seeds/busy-retry.pbs --target mutant-trunc32 --trace"
                          : "pbcheck disasm corpus/seeds/map-access-unmap-dummy.pbs --dma-size=4K",
        .footer = is_run ? PBC_CLI_JUDGE_EXIT_CODES
                         : "exit: 0 ran to the end, 1 stopped by a finding, 2 bad usage or an invalid\n"
                           "      scenario (FILE:LINE:COL: why), 77 skipped",
        .opts = opts,
    };
    memset(a, 0, sizeof(*a));
    int rc = pbc_cli_parse(&spec, argc, argv, &a->files);
    if (rc != PBC_CLI_GO)
        return rc;
    a->trace = trace;
    a->dma_size = (uint32_t)dma_size;
    a->no_fork = no_fork;
    a->timeout = timeout;
    a->memory = memory;
    int bad = PBC_EXIT_USAGE;
    if (!target) { /* a vendor who forgot --target must not read the reference's pass as theirs */
        target = "reference";
        printf("%s: no --target: judging pbcheck's reference builder (--target NAME or libNAME.so for yours)\n",
               verb);
    }
    if (!(a->target = pbc_cli_target(verb, target, timeout, memory, NULL, &bad)))
        rc = bad;
    else if (a->files.count == 0 && is_run) /* the seeds, installed or in the source tree */
        rc = pbc_cli_default_seeds(verb, &a->files);
    else if (a->files.count == 0)
        rc = pbc_usage_error("%s: no scenario given (try 'pbcheck %s --help')", verb, verb);
    else if (!is_run && a->files.count != 1)
        rc = pbc_usage_error("disasm: takes exactly one scenario, got %d", a->files.count);
    if (rc != PBC_CLI_GO)
        pbc_cli_args_fini(&a->files);
    else if (a->no_fork)
        pbc_exec_targets_load_here(); /* asked for: the builder runs in this process */
    return rc;
}

/* run's inputs: text scenarios. */
static int run_load(const char *path, const pbc_target *t, pbc_scenario *s)
{
    (void)t;
    char err[PBC_CLI_ERR_SIZE];
    if (pbc_scenario_load(path, s, err, sizeof(err)) == 0)
        return 0;
    fprintf(stderr, "%s\n", err);
    return -1;
}

int pbc_cmd_run(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args("run", argc, argv, &a);
    if (rc != PBC_CLI_GO)
        return rc;
    pbc_runner runner;
    pbc_runner_init(&runner);
    if (!a.no_fork)
        pbc_cli_isolate(&runner, a.target, run_load, a.timeout, a.memory);
    pbc_judge_counts c = {0};
    pbc_progress progress;
    pbc_progress_begin(&progress, "run");
    for (int i = 0; i < a.files.count; i++) {
        pbc_scenario s;
        char err[PBC_CLI_ERR_SIZE];
        if (pbc_scenario_load(a.files.pos[i], &s, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            c.bad_input++;
            continue;
        }
        pbc_cli_judge(&runner, "run", a.files.pos[i], &s, a.target, a.dma_size, a.trace, &c);
        pbc_scenario_fini(&s);
        if (!progress.tty) /* on a terminal the verdict lines are the progress */
            pbc_progress_tick(&progress, (uint64_t)i + 1, (uint64_t)a.files.count, c.failed, -1, a.files.pos[i]);
    }
    pbc_cli_isolate_end();
    pbc_runner_fini(&runner);
    pbc_cli_args_fini(&a.files);
    return pbc_cli_judge_summary("run", &c);
}

/* ---- Isolation: each scenario judged in a worker process ---- */

typedef struct judge_worker {
    pbc_runner *runner;
    const pbc_target *t;
    pbc_cli_loader load;
} judge_worker;

static judge_worker judge_w;
static pbc_iso *judge_iso;
static const char *judge_current; /* the input being judged, for "still" lines */
static double judge_told;

/* A scenario that takes long says so on stderr every ten seconds. */
static void judge_waiting(void *ctx, double seconds)
{
    (void)ctx;
    if (seconds - judge_told < 10)
        return;
    judge_told = seconds;
    fprintf(stderr, "pbcheck: still judging %s after %.0f s\n", judge_current, seconds);
}

static void judge_here(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                       const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c);
static void judge_text(FILE *o, pbc_runner *runner, const char *name, const pbc_scenario *s, const pbc_target *t,
                       uint32_t dma_size, int trace, pbc_judge_counts *c);

/* Text a builder may have written (its messages, DbgPrint output, crash
 * output, the verdict lines of a worker it runs in) reaches the terminal
 * only made safe: no escape sequence, no byte that is not printable. */
static void print_safe(const char *text)
{
    char *safe = pbc_safe_text(text ? text : "", PBC_SAFE_LINES);
    fputs(safe, stdout);
    if (safe[0] && safe[strlen(safe) - 1] != '\n')
        putchar('\n');
    free(safe);
}

/* The command that replays one scenario, pbcheck's own text. */
static void print_replay(const char *verb, const char *name, int trace)
{
    const char *argv[] = {pbc_child_self_command(), verb, name, "--target", pbc_cli_target_arg(),
                          trace ? "--trace" : NULL, NULL};
    char *cmd = pbc_report_shell_command(argv);
    printf("  replay: %s\n", cmd);
    free(cmd);
}

/* In the worker: the input read again from its file (so positions in
 * messages are the file's), judged and printed as in-process. */
static uint8_t *judge_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    judge_worker *w = ctx;
    pbc_wire_reader in = {job, len, 0};
    char *verb = pbc_wire_get_str(&in), *name = pbc_wire_get_str(&in);
    uint32_t dma_size = pbc_wire_get_u32(&in), trace = pbc_wire_get_u32(&in);
    pbc_judge_counts c = {0};
    pbc_scenario s;
    char *text = NULL;
    size_t text_len = 0;
    FILE *o = open_memstream(&text, &text_len);
    if (w->load(name, w->t, &s) == 0) {
        judge_text(o, w->runner, name, &s, w->t, dma_size, (int)trace, &c);
        pbc_scenario_fini(&s);
    } else {
        c.failed++; /* read a moment ago, unreadable now: the loader said why */
    }
    fclose(o);
    pbc_wire_buf out = {0};
    pbc_wire_put_u32(&out, c.passed);
    pbc_wire_put_u32(&out, c.failed);
    pbc_wire_put_u32(&out, c.skipped);
    pbc_wire_put_str(&out, text);
    free(text);
    free(verb);
    free(name);
    *answer_len = out.n;
    return out.p;
}

void pbc_cli_isolate(pbc_runner *runner, const pbc_target *t, pbc_cli_loader load, double seconds,
                     uint64_t memory)
{
    judge_w = (judge_worker){runner, t, load};
    /* The worker's stdout too: only the answer, made safe, reaches ours. */
    pbc_iso_limits lim = {seconds, memory, 64, PBC_ISO_CAPTURE_ALL};
    judge_iso = pbc_iso_create(&lim, judge_job, &judge_w);
    pbc_iso_set_waiting(judge_iso, judge_waiting, NULL);
    pbc_iso_catch_signals(NULL); /* a builder's signal fails its scenario; the user's ends the run */
}

void pbc_cli_isolate_end(void)
{
    pbc_iso_destroy(judge_iso);
    judge_iso = NULL;
}

void pbc_cli_judge(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                   const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c)
{
    if (!judge_iso || t != judge_w.t) {
        judge_here(runner, verb, name, s, t, dma_size, trace, c);
        return;
    }
    pbc_wire_buf job = {0};
    pbc_wire_put_str(&job, verb);
    pbc_wire_put_str(&job, name);
    pbc_wire_put_u32(&job, dma_size);
    pbc_wire_put_u32(&job, (uint32_t)trace);
    pbc_iso_result r;
    judge_current = name;
    judge_told = 0;
    pbc_judge_counts got = {0};
    char *text = NULL;
    if (pbc_iso_run_scaled(judge_iso, job.p, job.n, pbc_scenario_timeout_units(s), &r) == PBC_ISO_OK) {
        /* One scenario is judged once: counts of 0 or 1, one of them 1,
         * and the verdict lines, made safe here (the worker is the
         * builder's to write). */
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        got.passed = pbc_wire_get_u32_max(&in, 1);
        got.failed = pbc_wire_get_u32_max(&in, 1);
        got.skipped = pbc_wire_get_u32_max(&in, 1);
        text = pbc_wire_get_str(&in);
        if (!pbc_wire_done(&in) || got.passed + got.failed + got.skipped != 1)
            pbc_iso_reject(judge_iso, &r, "not a scenario's counts and verdict");
    }
    if (r.cls == PBC_ISO_OK) {
        c->passed += got.passed;
        c->failed += got.failed;
        c->skipped += got.skipped;
        print_safe(text);
        if (got.failed)
            print_replay(verb, name, 1);
    } else {
        c->failed++;
        char *detail = pbc_safe_text(r.detail, 0);
        if (r.cls == PBC_ISO_HARNESS)
            printf("HARNESS BUG  %s  %s\n", name, detail);
        printf("FAIL  %s  %s\n  %s: %s\n", name, pbc_iso_class_name(r.cls), pbc_iso_class_name(r.cls), detail);
        free(detail);
        if (r.output && r.output[0]) { /* what the worker printed: a sanitizer's report, the backtrace */
            printf("  its output:\n");
            print_safe(r.output);
        }
        print_replay(verb, name, 0);
    }
    free(text);
    pbc_iso_result_fini(&r);
    free(job.p);
}

/* In this process (a built-in target, or --no-fork): the same text, made
 * safe as a worker's is. */
static void judge_here(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                       const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c)
{
    char *text = NULL;
    size_t text_len = 0;
    FILE *o = open_memstream(&text, &text_len);
    uint32_t failed = c->failed;
    judge_text(o, runner, name, s, t, dma_size, trace, c);
    fclose(o);
    print_safe(text);
    free(text);
    if (c->failed != failed)
        print_replay(verb, name, 1);
}

/* One scenario judged, its verdict lines (and --trace's) into o: all but
 * the replay command, which the caller adds. */
static void judge_text(FILE *out, pbc_runner *runner, const char *name, const pbc_scenario *s, const pbc_target *t,
                       uint32_t dma_size, int trace, pbc_judge_counts *c)
{
    pbc_run_options o = {.dma_override = dma_size, .check_determinism = 1, .digest = 1,
                         .trace = trace ? out : NULL};
    if (trace)
        fprintf(out, "== %s (target %s)\n", name, t->name);
    pbc_outcome res;
    pbc_runner_run(runner, s, t, &o, &res);
    const pbc_record *r = &runner->target.res;
    switch (res.verdict) {
    case PBC_VERDICT_PASS:
        c->passed++;
        fprintf(out, "pass  %s  digest %016" PRIx64 "  (%u ops, %u calls, %u buffers, %u submissions, "
                "%u busy retries)\n", name, res.digest.total, s->op_count, r->calls, r->buffers,
                r->sub_count, r->busy_retries);
        break;
    case PBC_VERDICT_SKIP:
        c->skipped++;
        fprintf(out, "skip  %s  %s\n", name, res.message);
        break;
    default:
        c->failed++;
        fprintf(out, "%s  %s  %s\n  %s\n", res.verdict == PBC_VERDICT_FAIL ? "FAIL" : "HARNESS BUG", name,
                res.rule, res.message);
        if (res.verdict == PBC_VERDICT_FAIL && pbc_attribution_wanted(res.rule)) {
            /* who wrote the first wrong byte: the case once more, with a store watch */
            pbc_attribution a;
            if (pbc_attribute(runner, s, t, &a) != PBC_ATTR_NONE)
                fprintf(out, "  %s\n", a.text);
        }
        if (res.log[0])
            fprintf(out, "  the builder's DbgPrint output%s:\n%s%s", res.log_truncated ? " (last lines)" : "",
                    res.log, res.log[strlen(res.log) - 1] == '\n' ? "" : "\n");
        break;
    }
}

/* The decoder's purity audit, at the end of a split run: a decoder that is
 * not a pure function fails the run, as one more failure. */
static void judge_decoder_audit(const char *verb, pbc_judge_counts *c)
{
    pbc_decoder_audit_result a;
    if (pbc_exec_decoder_audit(&a))
        return;
    c->failed++;
    printf("FAIL  %s  the ISA description (its decoder process)\n  %s\n", verb, a.finding);
}

int pbc_cli_judge_summary(const char *verb, const pbc_judge_counts *counts)
{
    pbc_judge_counts all = *counts;
    const pbc_judge_counts *c = &all;
    judge_decoder_audit(verb, &all);
    if (c->bad_input)
        printf("%s: %u passed, %u failed, %u skipped (and %u input%s not read: see above)\n", verb, c->passed,
               c->failed, c->skipped, c->bad_input, c->bad_input == 1 ? "" : "s");
    else
        printf("%s: %u passed, %u failed, %u skipped\n", verb, c->passed, c->failed, c->skipped);
    if (c->failed)
        return PBC_EXIT_FAIL;
    if (c->bad_input)
        return PBC_EXIT_USAGE;
    return c->passed == 0 && c->skipped ? PBC_EXIT_SKIP : PBC_EXIT_PASS;
}

typedef struct disasm_ctx {
    const pbc_gpu *gpu;
    uint32_t last_entry;
    FILE *o;
} disasm_ctx;

static void disasm_packet(void *ctx, const pbc_qentry *e, uint32_t offset, const pbc_uop *uop)
{
    disasm_ctx *d = ctx;
    (void)uop;
    uint32_t entry = (uint32_t)(e - d->gpu->queue) + 1;
    if (entry != d->last_entry) {
        fprintf(d->o, "submission %u: buffer at 0x%" PRIx64 " [0x%x, 0x%x)\n", entry, e->phys, e->start, e->end);
        d->last_entry = entry;
    }
    char line[256];
    int64_t at = pbc_gpu_pool_offset(d->gpu, e->phys + offset); /* the pool may be seen through a segment (S40) */
    if (at < 0 || (uint64_t)at + (e->end - offset) > PBC_DMA_POOL_SIZE) {
        fprintf(d->o, "  +0x%05x  (outside the paging-buffer pool)\n", offset);
        return;
    }
    d->gpu->isa->disasm(d->gpu->dma_pool + at, e->end - offset, line, sizeof(line));
    fprintf(d->o, "  +0x%05x  %s\n", offset, line);
}

/* The disassembly itself: in a worker unless --no-fork, printing to the
 * caller's stdout. 0 ran to the end, 1 stopped by a finding, 2 a layout
 * the model cannot build (printed), 3 skipped. */
static int disasm_here(const run_args *a, const pbc_scenario *s, const char *name, FILE *o)
{
    const char *why;
    pbc_gpu *gpu = pbc_gpu_create(s->segments, s->segment_count, a->target->isa, &why);
    if (!gpu) {
        fprintf(o, "%s: %s\n", name, why);
        return 2;
    }
    if (pbc_ddi_is_proxy(a->target)) { /* the driver process pages its buffers where it sees them */
        uint8_t *pool = pbc_ddi_pool();
        if (!pool) {
            fprintf(o, "%s: no paging-buffer pool left in the arena shared with the driver process\n", name);
            pbc_gpu_destroy(gpu);
            return 2;
        }
        pbc_gpu_use_pool(gpu, pool);
    }
    disasm_ctx d = {gpu, 0, o};
    gpu->on_packet = disasm_packet;
    gpu->packet_ctx = &d;
    pbc_record res;
    pbc_record_init(&res);
    pbc_vidmm_options vo = {PBC_MODE_TARGET, a->dma_size, 0, NULL};
    int rc = pbc_vidmm_run(gpu, s, a->target, &vo, &res);
    if (res.findings.count)
        fprintf(o, "stopped: %s: %s\n", pbc_rule_get(res.findings.items[0].rule)->id, res.findings.items[0].detail);
    pbc_record_fini(&res);
    pbc_gpu_destroy(gpu);
    return rc == 0 ? 0 : rc == 2 ? 3 : 1;
}

typedef struct disasm_job_ctx {
    const run_args *a;
    const pbc_scenario *s;
} disasm_job_ctx;

static uint8_t *disasm_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    const disasm_job_ctx *d = ctx;
    pbc_wire_reader in = {job, len, 0};
    char *name = pbc_wire_get_str(&in);
    char *text = NULL;
    size_t text_len = 0;
    FILE *o = open_memstream(&text, &text_len);
    int done = disasm_here(d->a, d->s, name, o);
    fclose(o);
    pbc_wire_buf out = {0};
    pbc_wire_put_u32(&out, (uint32_t)done);
    pbc_wire_put_str(&out, text);
    free(text);
    free(name);
    *answer_len = out.n;
    return out.p;
}

int pbc_cmd_disasm(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args("disasm", argc, argv, &a);
    if (rc != PBC_CLI_GO)
        return rc;
    pbc_scenario s;
    char err[PBC_CLI_ERR_SIZE];
    const char *name = a.files.pos[0];
    if (pbc_scenario_load(name, &s, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        pbc_cli_args_fini(&a.files);
        return PBC_EXIT_USAGE;
    }
    int done;
    if (a.no_fork) {
        char *text = NULL;
        size_t text_len = 0;
        FILE *o = open_memstream(&text, &text_len);
        done = disasm_here(&a, &s, name, o);
        fclose(o);
        print_safe(text); /* the ISA's disassembler is the builder's code */
        free(text);
    } else {
        disasm_job_ctx ctx = {&a, &s};
        pbc_iso_limits lim = {a.timeout, a.memory, 1, PBC_ISO_CAPTURE_ALL};
        pbc_iso *iso = pbc_iso_create(&lim, disasm_job, &ctx);
        pbc_iso_catch_signals(NULL);
        pbc_wire_buf job = {0};
        pbc_wire_put_str(&job, name);
        pbc_iso_result r;
        char *text = NULL;
        if (pbc_iso_run_scaled(iso, job.p, job.n, pbc_scenario_timeout_units(&s), &r) == PBC_ISO_OK) {
            pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
            done = (int)pbc_wire_get_u32_max(&in, 3);
            text = pbc_wire_get_str(&in);
            if (!pbc_wire_done(&in))
                pbc_iso_reject(iso, &r, "not an exit status and a listing");
        }
        if (r.cls == PBC_ISO_OK) {
            print_safe(text);
        } else {
            char *detail = pbc_safe_text(r.detail, 0);
            printf("FAIL  %s  %s\n  %s: %s\n", name, pbc_iso_class_name(r.cls), pbc_iso_class_name(r.cls), detail);
            free(detail);
            if (r.output && r.output[0]) {
                printf("  its output:\n");
                print_safe(r.output);
            }
            done = 1;
        }
        free(text);
        pbc_iso_result_fini(&r);
        free(job.p);
        pbc_iso_destroy(iso);
    }
    pbc_scenario_fini(&s);
    pbc_cli_args_fini(&a.files);
    static const int exit_codes[] = {PBC_EXIT_PASS, PBC_EXIT_FAIL, PBC_EXIT_USAGE, PBC_EXIT_SKIP};
    return exit_codes[done & 3];
}
