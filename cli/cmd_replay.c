/*
 * pbcheck replay and pbcheck encode: the bridge between fuzzer inputs
 * (binary scenarios) and readable ones (.pbs text).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "base/util.h"

#define INPUT_MAX (1u << 20)

static const char replay_usage[] =
    "usage: pbcheck replay INPUT... [--target NAME] [--trace] [--print]\n"
    "\n"
    "Runs fuzzer inputs (crash-*, leak-*, timeout-*, queue entries: binary\n"
    "scenarios) or text scenarios through the target and judges them the way\n"
    "the fuzz target did: same verdict, same rule, same report.\n"
    "\n"
    "  --target NAME   builder to test (default: reference; 'pbcheck list targets')\n"
    "  --trace         print every DDI call, status, submission, fence and fault\n"
    "  --print         print each input as a text scenario first; save it as a\n"
    "                  .pbs file to get a readable, editable reproducer\n"
    "\n"
    "exit: 0 all passed, 1 a failure, 2 bad usage or an unreadable input\n";

/* A text scenario is printable ASCII that starts, after comments and
 * blank lines, with "pbs"; anything else is read as a binary scenario. */
static int looks_like_text(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isprint(d[i]) && d[i] != '\n' && d[i] != '\t' && d[i] != '\r')
            return 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && isspace(d[i]))
            i++;
        if (i < n && d[i] == '#') {
            while (i < n && d[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    return n - i >= 3 && memcmp(d + i, "pbs", 3) == 0;
}

/* Reads a text or binary scenario; on error prints one line and returns -1. */
static int load_input(const char *path, pbc_scenario *s)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = pbc_xmalloc(INPUT_MAX + 1);
    size_t n = fread(buf, 1, INPUT_MAX + 1, f);
    int rd_err = ferror(f);
    fclose(f);
    int rc = 0;
    if (rd_err || n > INPUT_MAX) {
        fprintf(stderr, "%s: %s\n", path, rd_err ? "read error" : "larger than 1 MiB");
        rc = -1;
    } else if (looks_like_text(buf, n)) {
        char err[512];
        if (pbc_scenario_parse((const char *)buf, n, path, s, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            rc = -1;
        }
    } else {
        pbc_scenario_decode(buf, n, s);
    }
    free(buf);
    return rc;
}

int pbc_cmd_replay(int argc, char **argv)
{
    const pbc_target *t = pbc_cli_target("reference");
    int trace = 0, print = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return fputs(replay_usage, stdout), PBC_EXIT_PASS;
        if (!strcmp(argv[i], "--target")) {
            if (++i >= argc)
                return pbc_usage_error("--target needs a name");
            if (!(t = pbc_cli_target(argv[i])))
                return PBC_EXIT_USAGE;
        } else if (!strcmp(argv[i], "--trace")) {
            trace = 1;
        } else if (!strcmp(argv[i], "--print")) {
            print = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return pbc_usage_error("unknown option '%s' (try --help)", argv[i]);
        } else {
            nfiles++;
        }
    }
    if (!nfiles)
        return pbc_usage_error("no input given (try --help)");
    pbc_runner runner;
    pbc_runner_init(&runner);
    pbc_judge_counts c = {0};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            i += !strcmp(argv[i], "--target");
            continue;
        }
        pbc_scenario s;
        if (load_input(argv[i], &s)) {
            c.bad_input++;
            continue;
        }
        if (print) {
            char *text = pbc_scenario_print(&s);
            printf("# %s\n%s", argv[i], text);
            free(text);
        }
        pbc_cli_judge(&runner, "replay", argv[i], &s, t, 0, trace, &c);
        pbc_scenario_fini(&s);
    }
    pbc_runner_fini(&runner);
    return pbc_cli_judge_summary("replay", &c);
}

static const char encode_usage[] =
    "usage: pbcheck encode SCENARIO.pbs... --out DIR\n"
    "\n"
    "Writes each text scenario as a binary scenario, DIR/NAME.bin, the input\n"
    "format of the fuzz targets: decoding it gives back the same scenario.\n"
    "Use it to add reproducers and hand-written cases to a fuzzing corpus.\n";

int pbc_cli_encode_file(const char *path, const char *dir)
{
    pbc_scenario s;
    char err[512];
    if (pbc_scenario_load(path, &s, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&s, &bytes);
    pbc_scenario_fini(&s);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".pbs"))
        len -= 4;
    char out[4096];
    snprintf(out, sizeof(out), "%s/%.*s.bin", dir, (int)len, base);
    FILE *f = fopen(out, "wb");
    int rc = f && fwrite(bytes, 1, n, f) == n ? 0 : -1;
    if (f && fclose(f))
        rc = -1;
    if (rc)
        fprintf(stderr, "%s: cannot write: %s\n", out, strerror(errno));
    free(bytes);
    return rc;
}

int pbc_cmd_encode(int argc, char **argv)
{
    const char *dir = NULL;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return fputs(encode_usage, stdout), PBC_EXIT_PASS;
        if (!strcmp(argv[i], "--out")) {
            if (++i >= argc)
                return pbc_usage_error("--out needs a directory");
            dir = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return pbc_usage_error("unknown option '%s' (try --help)", argv[i]);
        } else {
            nfiles++;
        }
    }
    if (!dir || !nfiles)
        return pbc_usage_error("encode needs scenarios and --out DIR (try --help)");
    if (mkdir(dir, 0777) && errno != EEXIST)
        return pbc_usage_error("cannot create %s: %s", dir, strerror(errno));
    int bad = 0, done = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            i++;
            continue;
        }
        if (pbc_cli_encode_file(argv[i], dir))
            bad++;
        else
            done++;
    }
    printf("encode: %d written to %s\n", done, dir);
    return bad ? PBC_EXIT_USAGE : PBC_EXIT_PASS;
}
