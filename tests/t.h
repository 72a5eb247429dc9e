/*
 * t.h — the project's test framework: named subtests (igt-style, stable and
 * greppable), checks that report file:line and the expression, and a main
 * that runs all subtests or the ones named on the command line.
 *   T_TEST(name) { T_CHECK(x == 1); }   ...   T_MAIN()
 */
#ifndef PBCHECK_T_H
#define PBCHECK_T_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*t_fn)(void);
typedef struct t_case {
    const char *name;
    t_fn fn;
} t_case;

static t_case t_cases[128];
static int t_case_count;
static int t_failures;

#define T_TEST(id)                                                                    \
    static void t_##id(void);                                                         \
    __attribute__((constructor)) static void t_register_##id(void)                    \
    {                                                                                 \
        t_cases[t_case_count].name = #id;                                             \
        t_cases[t_case_count++].fn = t_##id;                                          \
    }                                                                                 \
    static void t_##id(void)

#define T_CHECK(cond)                                                                 \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            t_failures++;                                                             \
        }                                                                             \
    } while (0)

#define T_CHECK_MSG(cond, ...)                                                        \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "  %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            t_failures++;                                                             \
        }                                                                             \
    } while (0)

#define T_MAIN()                                                                      \
    int main(int argc, char **argv)                                                   \
    {                                                                                 \
        int ran = 0, failed = 0;                                                      \
        for (int i = 0; i < t_case_count; i++) {                                      \
            int wanted = argc < 2;                                                    \
            for (int a = 1; a < argc; a++)                                            \
                wanted |= !strcmp(argv[a], t_cases[i].name);                          \
            if (!wanted)                                                              \
                continue;                                                             \
            int before = t_failures;                                                  \
            t_cases[i].fn();                                                          \
            ran++;                                                                    \
            failed += t_failures != before;                                           \
            printf("%s %s\n", t_failures != before ? "FAIL" : "ok  ", t_cases[i].name); \
        }                                                                             \
        printf("%d subtests, %d failed\n", ran, failed);                              \
        return failed || ran == 0;                                                    \
    }

#endif
