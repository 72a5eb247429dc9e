/*
 * cli.h — the pbcheck command line: one function per verb, and the exit
 * codes every verb shares.
 */
#ifndef PBCHECK_CLI_H
#define PBCHECK_CLI_H

#include <stdint.h>

#include <pbcheck/target.h>

#define PBC_EXIT_PASS 0
#define PBC_EXIT_FAIL 1
#define PBC_EXIT_USAGE 2
#define PBC_EXIT_SKIP 77

int pbc_cmd_run(int argc, char **argv);
int pbc_cmd_disasm(int argc, char **argv);
int pbc_cmd_list(int argc, char **argv);
int pbc_cmd_certify(int argc, char **argv);

/* Prints "pbcheck: <msg>" on stderr and returns PBC_EXIT_USAGE. */
int pbc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Looks a target up by name; prints the error and returns NULL if absent. */
const pbc_target *pbc_cli_target(const char *name);
/* Parses an unsigned number with an optional K/M/G suffix. */
int pbc_cli_number(const char *text, uint64_t max, uint64_t *out);

#endif
