/*
 * cli.h — the pbcheck command line: one function per verb, and the exit
 * codes every verb shares.
 */
#ifndef PBCHECK_CLI_H
#define PBCHECK_CLI_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pbcheck/target.h>

#include "exec/runner.h"
#include "exec/target.h"
#include "report/writers.h"

#define PBC_EXIT_PASS 0
#define PBC_EXIT_FAIL 1
#define PBC_EXIT_USAGE 2
#define PBC_EXIT_SKIP 77

/* The exit codes of the verbs that judge inputs (run, replay), as --help
 * states them: a failure outranks an unreadable input, which outranks
 * skips, so a bad file among the inputs never hides a finding. */
#define PBC_CLI_JUDGE_EXIT_CODES                                                  \
    "exit: 1 a failure (a finding or a harness bug), even when another input\n"   \
    "        could not be read;\n"                                                \
    "      2 no failure, but bad usage or an input that could not be read or is\n" \
    "        invalid, e.g. over the limits in docs/scenario-format.md (one line\n"  \
    "        each: FILE:LINE:COL: why, or FILE: why for a binary input);\n"       \
    "      77 every input skipped (the target does not support an operation, or\n" \
    "        its declared adapter cannot take the scenario);\n"                   \
    "      0 otherwise: all passed, or some passed and some were skipped"

/* Room for one error line that names a path of up to PATH_MAX bytes. */
#define PBC_CLI_ERR_SIZE (PATH_MAX + 1024)

int pbc_cmd_run(int argc, char **argv);
int pbc_cmd_disasm(int argc, char **argv);
int pbc_cmd_list(int argc, char **argv);
int pbc_cmd_certify(int argc, char **argv);
int pbc_cmd_replay(int argc, char **argv);
int pbc_cmd_triage(int argc, char **argv);
int pbc_cmd_encode(int argc, char **argv);
int pbc_cmd_fuzz(int argc, char **argv);
int pbc_cmd_bench(int argc, char **argv);

/* This build's version ("0.1.0") and git revision, as --version prints them. */
const char *pbc_cli_version(void);
const char *pbc_cli_git_revision(void);

/* The candidate nearest to word (edit distance, a swap counting one),
 * when it is near enough to be what was meant (at most a third of word's
 * length, plus one); else NULL. For "did you mean" in usage errors. */
const char *pbc_cli_suggest(const char *word, const char *const *candidates, size_t count);

/* Prints "pbcheck: <msg>" on stderr and returns PBC_EXIT_USAGE. */
int pbc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The one wording for an option value that is missing or wrong:
 * "pbcheck: VERB: --OPTION needs NEEDS, got 'VALUE'" (got nothing when
 * value is NULL). Returns PBC_EXIT_USAGE. */
int pbc_cli_bad_value(const char *verb, const char *option, const char *needs, const char *value);
/* Whether paths made by appending up to `room` bytes to `path` (the value
 * of VERB's --OPTION) fit in PATH_MAX: 0 if they do, else prints one line
 * saying how long the value may be and returns PBC_EXIT_USAGE, so that no
 * path is ever cut short in a fixed-size buffer. */
int pbc_cli_path_fits(const char *verb, const char *option, const char *path, size_t room);

/* The name or path the last pbc_cli_target call was given: what replay
 * commands say. */
const char *pbc_cli_target_arg(void);
/* Looks a builder up by the name given to VERB's --target: a library is
 * probed in a worker process (exec/target.h) under the verb's limits.
 * Prints why and returns NULL if there is none or it is unusable
 * (*exit_code PBC_EXIT_USAGE), or if the library crashed, exited or hung
 * while loading (PBC_EXIT_FAIL: with keep, what happened goes there,
 * unprinted; else it is printed with the library's output). */
const pbc_target *pbc_cli_target(const char *verb, const char *name, double seconds, uint64_t memory,
                                 pbc_exec_load *keep, int *exit_code);
/* Parses a decimal number (never octal or hex: "010" is ten) with an
 * optional K, M or G suffix (powers of 1024), checking for overflow;
 * 0 and *out when it is between min and max, else -1. */
int pbc_cli_number(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* ---- Options: one table per verb, parsed with getopt_long ---- */

typedef enum pbc_opt_kind {
    PBC_OPT_FLAG,    /* no value; sets *(int *)dest to 1 */
    PBC_OPT_STRING,  /* *(const char **)dest = the value */
    PBC_OPT_NUMBER,  /* pbc_cli_number into *(uint64_t *)dest; range shown in decimal */
    PBC_OPT_SIZE,    /* the same, range shown with K/M/G */
    PBC_OPT_SECONDS, /* decimal with an optional fraction, into *(double *)dest */
} pbc_opt_kind;

typedef struct pbc_opt {
    const char *name;  /* without the leading "--"; NULL ends a table */
    pbc_opt_kind kind;
    void *dest;
    const char *value; /* the value's placeholder in --help, e.g. "NAME" */
    const char *needs; /* what the value must be, e.g. "a size", "a name" */
    uint64_t min, max; /* numbers and seconds: the accepted range */
    const char *def;   /* the default, as --help shows it */
    const char *help;  /* what it does; '\n' starts a continuation line */
    int hidden;        /* accepted but not in --help (internal use) */
} pbc_opt;

typedef struct pbc_verb_spec {
    const char *name;     /* "run" */
    const char *synopsis; /* after "usage: pbcheck run ", e.g. "SCENARIO... [OPTIONS]" */
    const char *about;    /* what it does, a paragraph */
    const char *example;  /* one command line */
    const char *footer;   /* exit codes and notes, or NULL */
    const pbc_opt *opts;
} pbc_verb_spec;

typedef struct pbc_cli_args {
    char **pos; /* positional arguments, in order (owned array, borrowed strings) */
    int count;
} pbc_cli_args;

#define PBC_CLI_GO (-1)
/* Parses argv (argv[0] is the verb) into the table's destinations: options
 * as --opt value or --opt=value, anywhere among positional arguments, and
 * "--" ends them. Returns PBC_CLI_GO to carry on, or the exit code to
 * return at once: PBC_EXIT_PASS after printing --help, PBC_EXIT_USAGE after
 * printing a one-line error. */
int pbc_cli_parse(const pbc_verb_spec *v, int argc, char **argv, pbc_cli_args *out);
/* pbc_cli_parse for a verb that takes options only: any other argument is
 * a usage error. */
int pbc_cli_parse_options_only(const pbc_verb_spec *v, int argc, char **argv);
void pbc_cli_args_fini(pbc_cli_args *a);
/* Every option of the table with the value it has now (after parsing),
 * for a report's provenance; owned, free with pbc_cli_option_values_free. */
pbc_report_option *pbc_cli_option_values(const pbc_opt *opts, uint32_t *count);
void pbc_cli_option_values_free(pbc_report_option *values, uint32_t count);
/* The verb's --help text, on f. */
void pbc_cli_help(const pbc_verb_spec *v, FILE *f);

typedef struct pbc_judge_counts {
    uint32_t passed, failed, skipped, bad_input;
} pbc_judge_counts;

/* Runs one scenario (with the determinism check), prints its verdict line
 * and, on failure, the rule, the report and how to replay it with `verb`. */
void pbc_cli_judge(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                   const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c);
/* From now on pbc_cli_judge judges scenarios for target t in worker
 * processes (exec/isolate.h), each read again there from its file with
 * load: a builder that crashes, exits, hangs (seconds) or grows beyond
 * memory bytes costs that scenario, printed as a failure with its class.
 * pbc_cli_isolate_end stops the worker. */
/* Reads an input the way the verb does (printing why not); 0 or -1. */
typedef int (*pbc_cli_loader)(const char *path, const pbc_target *t, pbc_scenario *s);
void pbc_cli_isolate(pbc_runner *runner, const pbc_target *t, pbc_cli_loader load, double seconds,
                     uint64_t memory);
void pbc_cli_isolate_end(void);
/* A worker's resident memory beyond this is 'oom': twice what the
 * largest scenario the limits accept (docs/scenario-format.md) needs under
 * ASan+UBSan, about 4.6 GB. */
#define PBC_DEFAULT_MEMORY_LIMIT (10ull << 30)
/* The options of isolation, the same for run, replay and certify. */
#define PBC_ISOLATION_OPTS(no_fork, seconds, memory, seconds_text)                                                      \
    {"no-fork", PBC_OPT_FLAG, &(no_fork), NULL, NULL, 0, 0, "off",                                          \
     "run in this process (for a debugger): a crashing builder then\nends pbcheck"},                       \
        {"case-timeout", PBC_OPT_SECONDS, &(seconds), "S", "seconds", 0, 24 * 3600, seconds_text,          \
         "a scenario the builder does not finish in S seconds fails\nas 'timeout' (0: no limit); S more for " \
         "every 256 MiB\nit writes"},                                                                    \
        {"memory-limit", PBC_OPT_SIZE, &(memory), "SIZE", "bytes (K, M, G)", 64ull << 20, 1ull << 40, "10G",\
         "a scenario whose worker grows beyond SIZE resident fails\nas 'oom'"}
/* This pbcheck, to run again as a child: the running image itself, which
 * a child started by fork and exec reaches even when a rebuild has since
 * replaced the file (a path read with readlink would then be gone). */
#define PBC_SELF_EXE "/proc/self/exe"
/* Seconds on a monotonic clock. */
double pbc_cli_now(void);
/* The folder of the running pbcheck binary (for finding sibling builds). */
void pbc_cli_self_dir(char *out, size_t size);
/* The seed corpus (cli/seeds.c): PREFIX/share/pbcheck/seeds beside an
 * installed pbcheck, else the source tree's corpus/seeds. */
const char *pbc_cli_seeds_dir(void);
/* Fills files with the seed corpus's .pbs files, sorted, and says so on
 * stdout; PBC_CLI_GO, or a usage error when there are none. */
int pbc_cli_default_seeds(const char *verb, pbc_cli_args *files);

/* Writes the text scenario at path as DIR/NAME.bin; prints the error and
 * returns -1 when it cannot. */
int pbc_cli_encode_file(const char *path, const char *dir);
/* As pbc_cli_encode_file, the scenario laid onto layout (count segments,
 * a builder's declared adapter) when count is not 0. */
int pbc_cli_encode_file_in(const char *path, const char *dir, const pbc_segment_info *layout, uint32_t count);
/* Prints "VERB: N passed, ..." and returns the exit code the counts give
 * (PBC_CLI_JUDGE_EXIT_CODES). */
int pbc_cli_judge_summary(const char *verb, const pbc_judge_counts *c);

#endif
