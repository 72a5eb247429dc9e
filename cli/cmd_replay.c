/*
 * pbcheck replay and pbcheck encode: the bridge between fuzzer inputs
 * (binary scenarios) and readable ones (.pbs text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs.h"
#include "base/util.h"
#include "cli.h"
#include "progress.h"
#include "exec/target.h"

#define INPUT_MAX (1u << 20)

/* Reads a text or binary scenario (pbc_scenario_is_text decides which; a
 * binary one decoded within the target's declared layout, as the fuzz
 * target decodes it), within the limits run and the fuzz targets share;
 * on error prints one line and returns -1. */
static int load_input(const char *path, const pbc_target *t, pbc_scenario *s)
{
    char *data, err[PBC_CLI_ERR_SIZE];
    size_t n;
    if (pbc_fs_read(path, INPUT_MAX, &data, &n, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: %s\n", err);
        return -1;
    }
    const uint8_t *buf = (const uint8_t *)data;
    int rc = 0;
    if (pbc_scenario_is_text(path, buf, n)) {
        if (pbc_scenario_parse((const char *)buf, n, path, s, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            rc = -1;
        }
    } else {
        uint32_t line;
        pbc_segment_info layout[PBC_MAX_SEGMENTS];
        pbc_scenario_decode_in(buf, n, layout, pbc_exec_target_layout(t, layout), s);
        pbc_scenario_keep_supported(s, t); /* as the fuzz targets decode it */
        if (pbc_scenario_check_limits(s, err, sizeof(err), &line)) {
            fprintf(stderr, "%s: binary scenario %s\n", path, err);
            pbc_scenario_fini(s);
            rc = -1;
        }
    }
    free(data);
    return rc;
}

int pbc_cmd_replay(int argc, char **argv)
{
    const char *target = "reference";
    int trace = 0, print = 0, no_fork = 0;
    double timeout = 60;
    uint64_t memory = PBC_DEFAULT_MEMORY_LIMIT;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &target, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "reference", "builder to test ('pbcheck list targets')"},
        {"trace", PBC_OPT_FLAG, &trace, NULL, NULL, 0, 0, "off",
         "print every DDI call, status, submission, fence and fault"},
        {"print", PBC_OPT_FLAG, &print, NULL, NULL, 0, 0, "off",
         "print each input as a text scenario first; save it as a\n.pbs file to get a readable, editable reproducer"},
        PBC_ISOLATION_OPTS(no_fork, timeout, memory, "60"),
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "replay",
        .synopsis = "INPUT... [OPTIONS]",
        .about = "Runs fuzzer inputs (crash-*, leak-*, timeout-*, queue entries: binary\n"
                 "scenarios) or text scenarios through the target and judges them the way\n"
                 "the fuzz target did: same verdict, same rule, same report. A name ending\n"
                 "in .pbs is text, in .bin binary; any other input is text when its first\n"
                 "statement is 'pbs', else binary. An input over the limits of\n"
                 "docs/scenario-format.md (16 GiB of modeled memory written) is refused\n"
                 "before it runs; the fuzz targets do not run such inputs either.",
        .example = "pbcheck replay --target mutant-trunc32 --print fuzz-out/mutant-trunc32/artifacts/crash-1234",
        .footer = PBC_CLI_JUDGE_EXIT_CODES,
        .opts = opts,
    };
    pbc_cli_args args;
    int rc = pbc_cli_parse(&spec, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    int bad = PBC_EXIT_USAGE;
    const pbc_target *t = pbc_cli_target("replay", target, timeout, memory, NULL, &bad);
    if (!t || !args.count) {
        pbc_cli_args_fini(&args);
        return t ? pbc_usage_error("replay: no input given (try 'pbcheck replay --help')") : bad;
    }
    if (no_fork)
        pbc_exec_targets_load_here(); /* asked for: the builder runs in this process */
    pbc_runner runner;
    pbc_runner_init(&runner);
    if (!no_fork)
        pbc_cli_isolate(&runner, t, load_input, timeout, memory);
    pbc_judge_counts c = {0};
    pbc_progress progress;
    pbc_progress_begin(&progress, "replay");
    for (int i = 0; i < args.count; i++) {
        pbc_scenario s;
        if (load_input(args.pos[i], t, &s)) {
            c.bad_input++;
            continue;
        }
        if (print) {
            char *text = pbc_scenario_print(&s);
            printf("# %s\n%s", args.pos[i], text);
            free(text);
        }
        pbc_cli_judge(&runner, "replay", args.pos[i], &s, t, 0, trace, &c);
        pbc_scenario_fini(&s);
        if (!progress.tty) /* on a terminal the verdict lines are the progress */
            pbc_progress_tick(&progress, (uint64_t)i + 1, (uint64_t)args.count, c.failed, -1, args.pos[i]);
    }
    pbc_cli_isolate_end();
    pbc_runner_fini(&runner);
    pbc_cli_args_fini(&args);
    return pbc_cli_judge_summary("replay", &c);
}

/* DIR/NAME.bin for DIR/.../NAME.pbs (the caller frees it). */
static char *encoded_path(const char *path, const char *dir)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".pbs"))
        len -= 4;
    return pbc_xprintf("%s/%.*s.bin", dir, (int)len, base);
}

int pbc_cli_encode_file(const char *path, const char *dir)
{
    return pbc_cli_encode_file_in(path, dir, NULL, 0);
}

int pbc_cli_encode_file_in(const char *path, const char *dir, const pbc_segment_info *layout, uint32_t count)
{
    pbc_scenario s;
    char err[PBC_CLI_ERR_SIZE];
    if (pbc_scenario_load(path, &s, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&s, &bytes);
    pbc_scenario_fini(&s);
    if (count) { /* laid onto a declared adapter, as a fuzz target on it decodes every input */
        pbc_scenario_decode_in(bytes, n, layout, count, &s);
        free(bytes);
        n = pbc_scenario_encode(&s, &bytes);
        pbc_scenario_fini(&s);
    }
    char *out = encoded_path(path, dir);
    int rc = pbc_fs_write_atomic(out, bytes, n, err, sizeof(err));
    if (rc)
        fprintf(stderr, "pbcheck: %s\n", err);
    free(out);
    free(bytes);
    return rc;
}

/* Two inputs with one base name would be written to the same DIR/NAME.bin,
 * the second silently replacing the first: says which and returns -1. */
static int encode_names_clash(char *const *paths, int count, const char *dir)
{
    char **outs = pbc_xcalloc((size_t)count, sizeof(*outs));
    int clash = 0;
    for (int i = 0; i < count && !clash; i++) {
        outs[i] = encoded_path(paths[i], dir);
        for (int j = 0; j < i && !clash; j++)
            if (!strcmp(outs[i], outs[j])) {
                pbc_usage_error("encode: %s and %s would both be written as %s; nothing was written "
                                "(rename one, or encode them into different folders)",
                                paths[j], paths[i], outs[i]);
                clash = 1;
            }
    }
    for (int i = 0; i < count; i++)
        free(outs[i]);
    free(outs);
    return clash ? -1 : 0;
}

int pbc_cmd_encode(int argc, char **argv)
{
    const char *dir = NULL, *target_arg = NULL;
    const pbc_opt opts[] = {
        {"out", PBC_OPT_STRING, &dir, "DIR", "a folder", 0, 0, "none: it must be given",
         "where to write NAME.bin (created if missing)"},
        {"target", PBC_OPT_STRING, &target_arg, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "none: each scenario's own layout", "lay every scenario onto this builder's declared adapter"},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "encode",
        .synopsis = "SCENARIO.pbs... --out DIR",
        .about = "Writes each text scenario as a binary scenario, DIR/NAME.bin, the input\n"
                 "format of the fuzz targets: decoding it gives back the same scenario.\n"
                 "Use it to add reproducers and hand-written cases to a fuzzing corpus.\n"
                 "Scenarios are checked as 'run' checks them (limits included). Two inputs\n"
                 "with the same NAME (a/x.pbs and b/x.pbs) would overwrite each other:\n"
                 "encode then writes nothing and says which. With --target, a builder that\n"
                 "declares its adapter gets every scenario laid onto it (its segments\n"
                 "replace the scenario's layout, as its fuzz target decodes every input).",
        .example = "pbcheck encode corpus/seeds/*.pbs --out my-corpus",
        .footer = "exit: 0 all written; 2 bad usage, two inputs with the same name (nothing\n"
                  "      written), or a scenario that could not be read (file:line:col: why;\n"
                  "      the others are still written)",
        .opts = opts,
    };
    pbc_cli_args args;
    int rc = pbc_cli_parse(&spec, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    char err[PBC_CLI_ERR_SIZE];
    if (!dir || !args.count)
        rc = pbc_usage_error("encode: needs scenarios and --out DIR (try 'pbcheck encode --help')");
    else if (encode_names_clash(args.pos, args.count, dir))
        rc = PBC_EXIT_USAGE;
    else if (pbc_fs_mkdirs(dir, err, sizeof(err)))
        rc = pbc_usage_error("encode: %s", err);
    if (rc != PBC_CLI_GO) {
        pbc_cli_args_fini(&args);
        return rc;
    }
    pbc_segment_info layout[PBC_MAX_SEGMENTS];
    uint32_t layout_count = 0;
    if (target_arg) {
        int bad_target = PBC_EXIT_USAGE;
        const pbc_target *t = pbc_cli_target("encode", target_arg, 60, PBC_DEFAULT_MEMORY_LIMIT, NULL, &bad_target);
        if (!t) {
            pbc_cli_args_fini(&args);
            return bad_target;
        }
        layout_count = pbc_exec_target_layout(t, layout);
    }
    int bad = 0, done = 0;
    for (int i = 0; i < args.count; i++) {
        if (pbc_cli_encode_file_in(args.pos[i], dir, layout, layout_count))
            bad++;
        else
            done++;
    }
    pbc_cli_args_fini(&args);
    printf("encode: %d written to %s%s\n", done, dir, layout_count ? ", laid onto the target's declared adapter" : "");
    return bad ? PBC_EXIT_USAGE : PBC_EXIT_PASS;
}
