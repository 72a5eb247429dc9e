/*
 * cli.h — the pbcheck command line: one function per verb, and the exit
 * codes every verb shares.
 */
#ifndef PBCHECK_CLI_H
#define PBCHECK_CLI_H

#include <stddef.h>
#include <stdint.h>

#include <pbcheck/target.h>

#include "exec/runner.h"

#define PBC_EXIT_PASS 0
#define PBC_EXIT_FAIL 1
#define PBC_EXIT_USAGE 2
#define PBC_EXIT_SKIP 77

int pbc_cmd_run(int argc, char **argv);
int pbc_cmd_disasm(int argc, char **argv);
int pbc_cmd_list(int argc, char **argv);
int pbc_cmd_certify(int argc, char **argv);
int pbc_cmd_replay(int argc, char **argv);
int pbc_cmd_encode(int argc, char **argv);
int pbc_cmd_fuzz(int argc, char **argv);
int pbc_cmd_bench(int argc, char **argv);

/* Prints "pbcheck: <msg>" on stderr and returns PBC_EXIT_USAGE. */
int pbc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Looks a target up by name; prints the error and returns NULL if absent. */
const pbc_target *pbc_cli_target(const char *name);
/* Parses an unsigned number with an optional K/M/G suffix. */
int pbc_cli_number(const char *text, uint64_t max, uint64_t *out);

typedef struct pbc_judge_counts {
    uint32_t passed, failed, skipped, bad_input;
} pbc_judge_counts;

/* Runs one scenario (with the determinism check), prints its verdict line
 * and, on failure, the rule, the report and how to replay it with `verb`. */
void pbc_cli_judge(pbc_runner *runner, const char *verb, const char *name, const pbc_scenario *s,
                   const pbc_target *t, uint32_t dma_size, int trace, pbc_judge_counts *c);
/* Seconds on a monotonic clock. */
double pbc_cli_now(void);
/* The folder of the running pbcheck binary (for finding sibling builds). */
void pbc_cli_self_dir(char *out, size_t size);

/* Writes the text scenario at path as DIR/NAME.bin; prints the error and
 * returns -1 when it cannot. */
int pbc_cli_encode_file(const char *path, const char *dir);
/* Prints "VERB: N passed, ..." and returns the exit code the counts give. */
int pbc_cli_judge_summary(const char *verb, const pbc_judge_counts *c);

#endif
