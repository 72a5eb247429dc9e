/*
 * pbcheck: the front door. Dispatches to one function per verb; every verb
 * answers --help, and errors in what the user typed exit with 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "cli.h"
#include "exec/target.h"
#include "registry.h"

#ifdef PBC_HAVE_VERSION_H
#include "pbc_version.h"
#else /* a build without CMake (fuzz/oss-fuzz-build.sh's host tool) */
#define PBC_VERSION "0.1.0"
#define PBC_GIT_REV "unknown"
#endif

static const char usage[] =
    "usage: pbcheck VERB [ARGS]\n"
    "\n"
    "Fuzzing and conformance harness for WDDM paging-buffer builders\n"
    "(DxgkDdiBuildPagingBuffer, DxgkDdiPatch, DxgkDdiSubmitCommand).\n"
    "\n"
    "verbs:\n"
    "  run SCENARIO...    run text scenarios (.pbs) against a target and judge them\n"
    "  certify --target NAME\n"
    "                     the conformance suite: verdict, per-rule table, reports\n"
    "  disasm SCENARIO    run one scenario and print every executed packet\n"
    "  fuzz --target NAME drive libFuzzer or AFL++ on a builder (docs/fuzzing.md)\n"
    "  replay INPUT...    judge fuzzer inputs (binary) or text scenarios again\n"
    "  triage INPUT... --target NAME\n"
    "                     sort failing inputs into buckets, minimize each, report\n"
    "  encode SCENARIO... --out DIR\n"
    "                     text scenarios as fuzzer inputs (binary scenarios)\n"
    "  bench              fuzzing speed, memory and time-to-find (docs/benchmarks.md)\n"
    "  list [targets|operations|rules]\n"
    "                     what pbcheck knows, without running anything\n"
    "  version            the version and git revision of this build (also -V, --version)\n"
    "\n"
    "Run 'pbcheck VERB --help' (or 'pbcheck help VERB') for a verb's options.\n"
    "exit codes: 0 pass, 1 conformance failure, 2 usage or input error, 77 skipped\n";

const char *pbc_cli_version(void) { return PBC_VERSION; }
const char *pbc_cli_git_revision(void) { return PBC_GIT_REV; }

double pbc_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void pbc_cli_self_dir(char *out, size_t size)
{
    ssize_t len = readlink("/proc/self/exe", out, size - 1);
    out[len > 0 ? len : 0] = 0;
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = 0;
}

/* The target as the user named it (a library's path, or a built-in name),
 * for replay commands. */
static const char *target_arg = "reference";

const char *pbc_cli_target_arg(void) { return target_arg; }

const pbc_target *pbc_cli_target(const char *verb, const char *name, double seconds, uint64_t memory,
                                 pbc_exec_load *keep, int *exit_code)
{
    target_arg = name;
    *exit_code = PBC_EXIT_USAGE;
    if (!pbc_exec_target_is_path(name) && !pbc_target_find(name)) {
        pbc_cli_bad_value(verb, "target", "a builder from 'pbcheck list targets' or a path to a builder library", name);
        return NULL;
    }
    char why[PBC_CLI_ERR_SIZE];
    pbc_iso_limits lim = {seconds, memory, 1, PBC_ISO_CAPTURE_ALL};
    pbc_exec_load load;
    const pbc_target *t = pbc_exec_target_open(name, &lim, &load, why, sizeof(why));
    if (!t && load.failed && keep) { /* the caller reports it */
        *exit_code = PBC_EXIT_FAIL;
        *keep = load;
        return NULL;
    }
    if (!t && load.failed) { /* the builder's failure, not the user's: 1, with what it printed */
        *exit_code = PBC_EXIT_FAIL;
        fprintf(stderr, "pbcheck: %s: %s\n", verb, why);
        if (load.output && load.output[0])
            fprintf(stderr, "  its output:\n%s%s", load.output,
                    load.output[strlen(load.output) - 1] == '\n' ? "" : "\n");
    } else if (!t) {
        pbc_usage_error("%s: %s", verb, why);
    }
    pbc_exec_load_fini(&load);
    return t;
}

int main(int argc, char **argv)
{
    /* Line by line even into a pipe or CI log: a crash or a kill loses no
     * line already printed. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2)
        return fputs(usage, stderr), PBC_EXIT_USAGE;
    const char *verb = argv[1];
    static const struct {
        const char *name;
        int (*fn)(int argc, char **argv);
    } verbs[] = {{"run", pbc_cmd_run},       {"disasm", pbc_cmd_disasm}, {"certify", pbc_cmd_certify},
                 {"replay", pbc_cmd_replay}, {"triage", pbc_cmd_triage}, {"encode", pbc_cmd_encode},
                 {"fuzz", pbc_cmd_fuzz},     {"bench", pbc_cmd_bench},   {"list", pbc_cmd_list}};
    const char *names[PBC_ARRAY_LEN(verbs)];
    for (size_t i = 0; i < PBC_ARRAY_LEN(verbs); i++)
        names[i] = verbs[i].name;
    /* "help VERB" is "VERB --help". */
    if (!strcmp(verb, "help") && argc >= 3) {
        for (size_t i = 0; i < PBC_ARRAY_LEN(verbs); i++)
            if (!strcmp(argv[2], verbs[i].name))
                return verbs[i].fn(2, (char *[]){argv[2], "--help", NULL});
        const char *near = pbc_cli_suggest(argv[2], names, PBC_ARRAY_LEN(names));
        return near ? pbc_usage_error("help: no verb '%s'; did you mean '%s'?", argv[2], near)
                    : pbc_usage_error("help: no verb '%s' (try 'pbcheck --help')", argv[2]);
    }
    if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help"))
        return fputs(usage, stdout), PBC_EXIT_PASS;
    if (!strcmp(verb, "--version") || !strcmp(verb, "-V") || !strcmp(verb, "version"))
        return printf("pbcheck %s (git %s)\n", pbc_cli_version(), pbc_cli_git_revision()), PBC_EXIT_PASS;
    for (size_t i = 0; i < PBC_ARRAY_LEN(verbs); i++)
        if (!strcmp(verb, verbs[i].name))
            return verbs[i].fn(argc - 1, argv + 1);
    if (verb[0] == '-') { /* an option where a verb goes: pbcheck's own are --help and --version */
        static const char *const own[] = {"help", "version"};
        const char *near = pbc_cli_suggest(verb + strspn(verb, "-"), own, 2);
        return near ? pbc_usage_error("unknown option '%s'; did you mean '--%s'? (try 'pbcheck --help')", verb, near)
                    : pbc_usage_error("unknown option '%s': pbcheck takes a verb first (try 'pbcheck --help')", verb);
    }
    const char *near = pbc_cli_suggest(verb, names, PBC_ARRAY_LEN(names));
    return near ? pbc_usage_error("unknown verb '%s'; did you mean '%s'? (try 'pbcheck --help')", verb, near)
                : pbc_usage_error("unknown verb '%s' (try 'pbcheck --help')", verb);
}
