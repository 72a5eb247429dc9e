/*
 * pbcheck run and pbcheck disasm: text scenarios through a target.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exec/runner.h"

static const char run_usage[] =
    "usage: pbcheck run SCENARIO... [--target NAME] [--trace] [--dma-size N]\n"
    "\n"
    "Runs each text scenario (.pbs, see docs/scenario-format.md) through the\n"
    "VidMm model against the target, and judges it: the target must break no\n"
    "protocol rule and leave the same observable memory as the reference\n"
    "builder, which is itself checked against the spec model.\n"
    "\n"
    "  --target NAME   builder to test (default: reference; 'pbcheck list targets')\n"
    "  --trace         print every DDI call, status, submission, fence and fault\n"
    "  --dma-size N    give every paging buffer N bytes (K/M suffixes allowed),\n"
    "                  instead of the scenario's 'dma' operations\n"
    "\n"
    "Prints one line per scenario, then 'run: N passed, N failed, N skipped'.\n"
    "exit: 0 all passed, 1 a failure, 2 bad usage or an unreadable scenario,\n"
    "      77 everything skipped\n";

typedef struct run_args {
    const pbc_target *target;
    int trace;
    uint32_t dma_size;
    char **files;
    int file_count;
} run_args;

static int parse_run_args(int argc, char **argv, const char *usage, run_args *a)
{
    memset(a, 0, sizeof(*a));
    a->target = pbc_cli_target("reference");
    a->files = calloc((size_t)argc, sizeof(char *));
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage, stdout);
            return -2;
        } else if (!strcmp(arg, "--target")) {
            if (++i >= argc)
                return pbc_usage_error("--target needs a name"), -1;
            if (!(a->target = pbc_cli_target(argv[i])))
                return -1;
        } else if (!strcmp(arg, "--trace")) {
            a->trace = 1;
        } else if (!strcmp(arg, "--dma-size")) {
            uint64_t v;
            if (++i >= argc || pbc_cli_number(argv[i], 1u << 20, &v) || v == 0)
                return pbc_usage_error("--dma-size needs a size between 1 and 1M"), -1;
            a->dma_size = (uint32_t)v;
        } else if (arg[0] == '-' && arg[1]) {
            return pbc_usage_error("unknown option '%s' (try --help)", arg), -1;
        } else {
            a->files[a->file_count++] = argv[i];
        }
    }
    if (a->file_count == 0)
        return pbc_usage_error("no scenario given (try --help)"), -1;
    return 0;
}

int pbc_cmd_run(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, run_usage, &a);
    if (rc) {
        free(a.files);
        return rc == -2 ? PBC_EXIT_PASS : PBC_EXIT_USAGE;
    }
    pbc_runner runner;
    pbc_runner_init(&runner);
    pbc_judge_counts c = {0};
    for (int i = 0; i < a.file_count; i++) {
        pbc_scenario s;
        char err[512];
        if (pbc_scenario_load(a.files[i], &s, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            c.bad_input++;
            continue;
        }
        pbc_cli_judge(&runner, "run", a.files[i], &s, a.target, a.dma_size, a.trace, &c);
        pbc_scenario_fini(&s);
    }
    pbc_runner_fini(&runner);
    free(a.files);
    return pbc_cli_judge_summary("run", &c);
}

void pbc_cli_judge(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                   const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c)
{
    pbc_run_options o = {.dma_override = dma_size, .check_determinism = 1, .trace = trace ? stdout : NULL};
    if (trace)
        printf("== %s (target %s)\n", name, t->name);
    pbc_outcome out;
    pbc_runner_run(runner, s, t, &o, &out);
    const pbc_record *r = &runner->target.res;
    switch (out.verdict) {
    case PBC_VERDICT_PASS:
        c->passed++;
        printf("pass  %s  digest %016" PRIx64 "  (%u ops, %u calls, %u buffers, %u submissions, "
               "%u busy retries)\n", name, out.digest.total, s->op_count, r->calls, r->buffers,
               r->sub_count, r->busy_retries);
        break;
    case PBC_VERDICT_SKIP:
        c->skipped++;
        printf("skip  %s  %s\n", name, out.message);
        break;
    default:
        c->failed++;
        printf("%s  %s  %s\n  %s\n", out.verdict == PBC_VERDICT_FAIL ? "FAIL" : "HARNESS BUG", name,
               out.rule, out.message);
        printf("  replay: pbcheck %s %s --target %s --trace\n", verb, name, t->name);
        break;
    }
}

int pbc_cli_judge_summary(const char *verb, const pbc_judge_counts *c)
{
    printf("%s: %u passed, %u failed, %u skipped%s\n", verb, c->passed, c->failed, c->skipped,
           c->bad_input ? " (and unreadable inputs: see above)" : "");
    if (c->bad_input)
        return PBC_EXIT_USAGE;
    if (c->failed)
        return PBC_EXIT_FAIL;
    return c->passed == 0 && c->skipped ? PBC_EXIT_SKIP : PBC_EXIT_PASS;
}

static const char disasm_usage[] =
    "usage: pbcheck disasm SCENARIO [--target NAME] [--dma-size N]\n"
    "\n"
    "Runs the scenario against the target and prints every packet the GPU\n"
    "executes, one per line, decoded by the target's ISA decoder, grouped by\n"
    "submission (paging buffer, range and fence).\n";

typedef struct disasm_ctx {
    const pbc_gpu *gpu;
    uint32_t last_entry;
} disasm_ctx;

static void disasm_packet(void *ctx, const pbc_qentry *e, uint32_t offset, const pbc_uop *uop)
{
    disasm_ctx *d = ctx;
    (void)uop;
    uint32_t entry = (uint32_t)(e - d->gpu->queue) + 1;
    if (entry != d->last_entry) {
        printf("submission %u: buffer at 0x%" PRIx64 " [0x%x, 0x%x)\n", entry, e->phys, e->start, e->end);
        d->last_entry = entry;
    }
    char line[256];
    const uint8_t *bytes = d->gpu->dma_pool + (e->phys + offset - PBC_DMA_POOL_BASE);
    d->gpu->isa->disasm(bytes, e->end - offset, line, sizeof(line));
    printf("  +0x%05x  %s\n", offset, line);
}

int pbc_cmd_disasm(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, disasm_usage, &a);
    if (rc || a.file_count != 1) {
        free(a.files);
        if (rc == -2)
            return PBC_EXIT_PASS;
        return rc ? PBC_EXIT_USAGE : pbc_usage_error("disasm takes exactly one scenario");
    }
    pbc_scenario s;
    char err[512];
    if (pbc_scenario_load(a.files[0], &s, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        free(a.files);
        return PBC_EXIT_USAGE;
    }
    const char *why;
    pbc_gpu *gpu = pbc_gpu_create(s.segments, s.segment_count, a.target->isa, &why);
    if (!gpu) {
        fprintf(stderr, "%s: %s\n", a.files[0], why);
        pbc_scenario_fini(&s);
        free(a.files);
        return PBC_EXIT_USAGE;
    }
    disasm_ctx d = {gpu, 0};
    gpu->on_packet = disasm_packet;
    gpu->packet_ctx = &d;
    pbc_record res;
    pbc_record_init(&res);
    pbc_vidmm_options o = {PBC_MODE_TARGET, a.dma_size, 0, NULL};
    rc = pbc_vidmm_run(gpu, &s, a.target, &o, &res);
    if (res.findings.count)
        printf("stopped: %s: %s\n", pbc_rule_get(res.findings.items[0].rule)->id, res.findings.items[0].detail);
    pbc_record_fini(&res);
    pbc_gpu_destroy(gpu);
    pbc_scenario_fini(&s);
    free(a.files);
    return rc == 0 ? PBC_EXIT_PASS : rc == 2 ? PBC_EXIT_SKIP : PBC_EXIT_FAIL;
}
