/*
 * coverage.h: coverage of a vendor's builder code for certify and fuzz
 * (cli/coverage.c).
 */
#ifndef PBCHECK_CLI_COVERAGE_H
#define PBCHECK_CLI_COVERAGE_H

#include <limits.h>

typedef struct pbc_coverage {
    int on;
    char library[PATH_MAX];  /* the coverage build, libNAME_cov.so */
    char raw_dir[PATH_MAX];  /* the workers' raw profiles */
    char profdata[PATH_MAX]; /* llvm-profdata(-14) */
    char cov[PATH_MAX];      /* llvm-cov(-14) */
    char profile_env[PATH_MAX + 64]; /* "LLVM_PROFILE_FILE=...": one profile per worker */
} pbc_coverage;

/* For `VERB --coverage --target path/libNAME.so`: finds libNAME_cov.so
 * beside it and llvm's tools, and makes the profiles' folder; whoever runs
 * the coverage build puts profile_env in its environment. 0, or a usage
 * error's exit code after saying why. */
int pbc_coverage_prepare(const char *verb, const char *target, pbc_coverage *c);

/* pbc_coverage_prepare, then points *target at libNAME_cov.so and sets
 * LLVM_PROFILE_FILE so that every worker started after this writes its
 * own profile (fuzz --coverage: the run is the coverage build's alone). */
int pbc_coverage_begin(const char *verb, const char **target, pbc_coverage *c);
/* Merges the profiles and writes DIR/coverage/ (llvm-cov's HTML in html/,
 * coverage.json), and adds the totals to DIR/report.json, DIR/summary.md
 * and DIR/index.html where they exist. 0, or -1 after saying why. */
int pbc_coverage_end(pbc_coverage *c, const char *dir);
/* Removes the profiles' folder of a run that ends without
 * pbc_coverage_end; nothing after pbc_coverage_end. */
void pbc_coverage_discard(pbc_coverage *c);

#endif
