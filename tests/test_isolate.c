/* Worker isolation (exec/isolate.h): each way a job can go wrong is
 * classified, the worker is replaced after it, and answers come back
 * intact. The job's first byte says what to do. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pbcheck/wdk/wdm.h>

#include "base/util.h"
#include "exec/isolate.h"
#include "exec/symbolize.h"
#include "kernel/services.h"
#include "t.h"

/* The pid of the escapee a job leaves behind, through a shared page. */
static volatile pid_t *escapee;

/* Which worker answered: a number of its own (a pid does not say: in a
 * PID namespace every worker is pid 2). */
static uint32_t worker_token(void)
{
    static uint32_t token;
    while (!token)
        if (getrandom(&token, sizeof(token), 0) != (ssize_t)sizeof(token))
            token = 0;
    return token;
}

static uint8_t *job(void *ctx, const uint8_t *in, size_t len, size_t *answer_len)
{
    (void)ctx;
    switch (len ? in[0] : 'e') {
    case 's':
        raise(SIGSEGV);
        break;
    case 'x':
        exit(3);
    case 'l':
        for (volatile unsigned spin = 0;; spin++)
            ;
    case 'm': { /* shared memory, so only the resident-memory watch sees it */
        size_t n = 512u << 20;
        volatile uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        for (size_t i = 0; p != MAP_FAILED && i < n; i += 4096)
            p[i] = 1;
        sleep(5);
        break;
    }
    case 'h':
        pbc_harness_bug("an invariant of the test %d", 42);
    case 'p':
        fprintf(stderr, "a line of output\n");
        raise(SIGABRT);
        break;
    case 'k': /* at pbcheck itself */
        kill(getppid(), SIGTERM);
        break;
    case 'g':
        kill(0, SIGINT);
        break;
    case 't': /* stops its caller as a debugger would */
        ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
        break;
    case 'd': { /* detached as a daemon is: a new session, a second fork, the first gone */
        pid_t first = fork();
        if (first == 0) {
            setsid();
            pid_t second = fork();
            if (second == 0) {
                *escapee = getpid();
                for (;;)
                    pause();
            }
            _exit(0);
        }
        waitpid(first, NULL, 0);
        while (!*escapee)
            usleep(1000);
        break;
    }
    case 'D': /* the same, without waiting for the first fork: it is still ending as the job answers */
        if (fork() == 0) {
            setsid();
            if (fork() == 0) {
                *escapee = getpid();
                for (;;)
                    pause();
            }
            _exit(0);
        }
        while (!*escapee)
            usleep(1000);
        break;
    case 'w': /* last words */
        DbgPrint("the last words: %d\n", 7);
        raise(SIGSEGV);
        break;
    case 'L': { /* its job pipe swapped for one it holds open itself: it never reads the end */
        int p[2];
        if (pipe(p) == 0)
            dup2(p[0], 3);
        break;
    }
    case 'G': { /* an answer of its own, in no frame the transport knows, ahead of the real one */
        uint32_t forged[4] = {4, 0x80000000u, 0, 0};
        if (write(4, forged, sizeof(forged)) == (ssize_t)sizeof(forged))
            _exit(0);
        break;
    }
    case 'F': { /* a well-formed answer of its own, numbered as no job is, ahead of the real one */
        pbc_wire_buf f = {0};
        pbc_wire_put_u32(&f, worker_token());
        pbc_wire_put_str(&f, "forged");
        pbc_wire_head h = {(uint32_t)f.n, PBC_WIRE_TAG, 7, 0};
        int ok = write(4, &h, sizeof(h)) == (ssize_t)sizeof(h) && write(4, f.p, f.n) == (ssize_t)f.n;
        free(f.p);
        if (ok)
            _exit(0);
        break;
    }
    case 'V': { /* a frame of another version of the transport */
        pbc_wire_head h = {4, PBC_WIRE_TAG ^ (1u << 24), 0, 0};
        uint32_t body = 0;
        if (write(4, &h, sizeof(h)) == (ssize_t)sizeof(h) && write(4, &body, 4) == 4)
            _exit(0);
        break;
    }
    default:
        break;
    }
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, worker_token());
    pbc_wire_put_str(&b, (const char *)in + 1);
    *answer_len = b.n;
    return b.p;
}

static pbc_iso_class run(pbc_iso *iso, const char *what, pbc_iso_result *r)
{
    return pbc_iso_run(iso, (const uint8_t *)what, strlen(what) + 1, r);
}

T_TEST(each_failure_is_classified_and_costs_one_job)
{
    pbc_iso_limits lim = {2.0, 256u << 20, 100, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    T_CHECK(run(iso, "ehello", &r) == PBC_ISO_OK);
    pbc_wire_reader in = {r.answer, r.answer_len, 0};
    uint32_t first_worker = pbc_wire_get_u32(&in);
    char *echo = pbc_wire_get_str(&in);
    T_CHECK(echo && strcmp(echo, "hello") == 0);
    free(echo);
    pbc_iso_result_fini(&r);

    struct {
        const char *job;
        pbc_iso_class cls;
        const char *detail;
    } bad[] = {
        {"s", PBC_ISO_CRASH, "SEGV"}, /* "SIGSEGV", or the sanitizer's "SEGV" */
        {"x", PBC_ISO_EXIT, "exit status 3"},
        {"l", PBC_ISO_TIMEOUT, "no answer within 2 s"},
        {"m", PBC_ISO_OOM, "over the limit of 256.0 MiB (stopped; pbcheck's --memory-limit"},
        {"h", PBC_ISO_HARNESS, "an invariant of the test 42"},
        {"p", PBC_ISO_CRASH, "SIGABRT"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        T_CHECK(run(iso, bad[i].job, &r) == bad[i].cls);
        T_CHECK(strstr(r.detail, bad[i].detail) != NULL);
        if (!strstr(r.detail, bad[i].detail))
            fprintf(stderr, "  job %s: %s: %s\n", bad[i].job, pbc_iso_class_name(r.cls), r.detail);
        if (bad[i].job[0] == 'p') /* the job's output comes with it */
            T_CHECK(r.output && strstr(r.output, "a line of output"));
        pbc_iso_result_fini(&r);
        /* and the next job runs in a fresh worker */
        T_CHECK(run(iso, "eagain", &r) == PBC_ISO_OK);
        pbc_wire_reader again = {r.answer, r.answer_len, 0};
        T_CHECK(pbc_wire_get_u32(&again) != first_worker);
        pbc_iso_result_fini(&r);
    }
    pbc_iso_destroy(iso);
}

T_TEST(answers_are_read_with_bounds)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, 7);
    pbc_wire_put_str(&b, "two");
    pbc_wire_reader ok = {b.p, b.n, 0, 0};
    T_CHECK(pbc_wire_get_u32_max(&ok, 7) == 7);
    char *s = pbc_wire_get_str(&ok);
    T_CHECK(s && !strcmp(s, "two") && pbc_wire_done(&ok));
    free(s);
    /* one byte short: the string's length runs past the end */
    pbc_wire_reader shortr = {b.p, b.n - 1, 0, 0};
    pbc_wire_get_u32(&shortr);
    T_CHECK(pbc_wire_get_str(&shortr) == NULL && !pbc_wire_done(&shortr));
    /* one byte too long: everything read, one byte left over */
    pbc_wire_put_bytes(&b, "x", 0);
    b.p[b.n - 4] = 0;
    pbc_wire_reader longr = {b.p, b.n - 3, 0, 0};
    pbc_wire_get_u32(&longr);
    free(pbc_wire_get_str(&longr));
    T_CHECK(!pbc_wire_done(&longr));
    /* a value out of its range, a read past the end */
    pbc_wire_reader range = {b.p, b.n, 0, 0};
    T_CHECK(pbc_wire_get_u32_max(&range, 6) == 0 && !pbc_wire_done(&range));
    pbc_wire_reader past = {b.p, 2, 0, 0};
    T_CHECK(pbc_wire_get_u32(&past) == 0 && past.bad);
    /* a string with a NUL inside is not one string; text is made safe */
    pbc_wire_buf t = {0};
    pbc_wire_put_bytes(&t, "a\0b", 3);
    pbc_wire_put_str(&t, "v\n\x1b[8m");
    pbc_wire_reader nul = {t.p, t.n, 0, 0};
    T_CHECK(pbc_wire_get_str(&nul) == NULL && nul.bad);
    pbc_wire_reader text = {t.p, t.n, 0, 0};
    size_t n;
    free(pbc_wire_get_bytes(&text, &n));
    s = pbc_wire_get_text(&text, 0);
    T_CHECK(s && !strcmp(s, "v\\x0a\\x1b[8m") && pbc_wire_done(&text));
    free(s);
    free(t.p);
    free(b.p);
}

T_TEST(a_garbled_answer_is_the_builders)
{
    pbc_iso_limits lim = {2.0, 0, 100, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    T_CHECK(run(iso, "G", &r) == PBC_ISO_CRASH && strstr(r.detail, "the worker's answer is garbled"));
    pbc_iso_result_fini(&r);
    /* a well-formed frame that answers no job sent, and one of another version: refused by their headers */
    T_CHECK(run(iso, "Fx", &r) == PBC_ISO_CRASH && strstr(r.detail, "the worker's answer is garbled: the answer to job 7, not to job"));
    pbc_iso_result_fini(&r);
    T_CHECK(run(iso, "Vx", &r) == PBC_ISO_CRASH && strstr(r.detail, "not this transport's"));
    pbc_iso_result_fini(&r);
    /* an answer its reader refuses: the worker goes, the next job gets a fresh one */
    T_CHECK(run(iso, "eone", &r) == PBC_ISO_OK);
    pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
    uint32_t pid = pbc_wire_get_u32(&in);
    T_CHECK(pbc_iso_reject(iso, &r, "a test") == PBC_ISO_CRASH && r.answer == NULL);
    T_CHECK(!strcmp(r.detail, "the worker's answer is garbled: a test"));
    pbc_iso_result_fini(&r);
    T_CHECK(kill((pid_t)pid, 0) != 0);
    T_CHECK(run(iso, "etwo", &r) == PBC_ISO_OK);
    pbc_wire_reader again = {r.answer, r.answer_len, 0, 0};
    T_CHECK(pbc_wire_get_u32(&again) != pid);
    pbc_iso_result_fini(&r);
    pbc_iso_destroy(iso);
}

T_TEST(a_worker_that_never_exits_is_killed)
{
    pbc_iso_limits lim = {2.0, 0, 1, 0};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    T_CHECK(run(iso, "L", &r) == PBC_ISO_OK);
    pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
    pid_t lingering = (pid_t)pbc_wire_get_u32(&in);
    pbc_iso_result_fini(&r);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    T_CHECK(run(iso, "enext", &r) == PBC_ISO_OK); /* the batch of one is over: the lingering worker goes */
    pbc_iso_result_fini(&r);
    pbc_iso_destroy(iso);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    T_CHECK(t1.tv_sec - t0.tv_sec < 10);
    T_CHECK(kill(lingering, 0) != 0);
}

/* Where its caller will go on: a point inside inlined_step's code, once
 * that is inlined into the test. */
static __attribute__((noinline)) const void *caller_pc(void) { return __builtin_return_address(0); }

static inline __attribute__((always_inline)) const void *inlined_step(void) { return caller_pc(); }

T_TEST(an_inlined_function_is_named_with_its_caller)
{
    pbc_sym s;
    const char *pc = inlined_step();
    T_CHECK(pbc_sym_address(pc - 1, &s) == 0); /* a return address: the call is the byte before */
    T_CHECK(!strcmp(s.function, "inlined_step") && strstr(s.where, "test_isolate.c:"));
    T_CHECK(strstr(s.inlined, ", inlined into t_an_inlined_function_is_named_with_its_caller at ") &&
            strstr(s.inlined, "test_isolate.c:"));
    if (strcmp(s.function, "inlined_step") || !strstr(s.inlined, "inlined into"))
        fprintf(stderr, "  named '%s' at '%s'%s\n", s.function, s.where, s.inlined);
}

T_TEST(code_is_named_from_debug_information)
{
    pbc_sym s;
    T_CHECK(pbc_sym_address((const void *)job, &s) == 0);
    T_CHECK(!strcmp(s.function, "job") && strstr(s.where, "test_isolate.c:"));
    if (strcmp(s.function, "job") || !strstr(s.where, "test_isolate.c:"))
        fprintf(stderr, "  named '%s' at '%s'\n", s.function, s.where);
    T_CHECK(pbc_sym_module("not/absolute.so", 0, 0, &s) == -1);
}

T_TEST(workers_are_replaced_after_a_batch)
{
    pbc_iso_limits lim = {0, 0, 2, 0};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    uint32_t worker[4];
    for (int k = 0; k < 4; k++) {
        pbc_iso_result r;
        T_CHECK(run(iso, "e", &r) == PBC_ISO_OK);
        pbc_wire_reader in = {r.answer, r.answer_len, 0};
        worker[k] = pbc_wire_get_u32(&in);
        pbc_iso_result_fini(&r);
    }
    T_CHECK(worker[0] == worker[1] && worker[1] != worker[2] && worker[2] == worker[3]);
    pbc_iso_destroy(iso);
}

T_TEST(a_worker_cannot_signal_its_caller)
{
    if (!pbc_iso_seccomp_available()) {
        fprintf(stderr, "  (no seccomp filters here: the fallback blames signals instead; see hostile_test.sh)\n");
        return;
    }
    pbc_iso_limits lim = {5.0, 0, 100, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    const char *aimed[] = {"k", "g", "t"};
    for (size_t i = 0; i < 3; i++) {
        T_CHECK(run(iso, aimed[i], &r) == PBC_ISO_CRASH); /* and this test process is still here */
        T_CHECK(strstr(r.detail, "SIGSYS") && strstr(r.detail, "forbids"));
        pbc_iso_result_fini(&r);
    }
    T_CHECK(run(iso, "eafter", &r) == PBC_ISO_OK); /* a worker may still signal itself: raise works */
    pbc_iso_result_fini(&r);
    T_CHECK(run(iso, "s", &r) == PBC_ISO_CRASH && strstr(r.detail, "SEGV"));
    pbc_iso_result_fini(&r);
    pbc_iso_destroy(iso);
}

T_TEST(nothing_a_job_starts_outlives_it)
{
    escapee = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    T_CHECK(escapee != MAP_FAILED);
    pbc_iso_limits lim = {5.0, 0, 100, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    *escapee = 0;
    T_CHECK(run(iso, "d", &r) == PBC_ISO_ESCAPE);
    const char *named = strstr(r.detail, "left 1 process running after its case (killed: pid ");
    if (!named)
        fprintf(stderr, "  job d: %s: %s\n", pbc_iso_class_name(r.cls), r.detail);
    T_CHECK(named != NULL && *escapee > 0);
    pid_t pid = named ? (pid_t)atoi(named + strlen("left 1 process running after its case (killed: pid ")) : 0;
    pbc_iso_result_fini(&r);
    T_CHECK_MSG(run(iso, "eafter", &r) == PBC_ISO_OK, "%s: %s", pbc_iso_class_name(r.cls), r.detail);
    pbc_iso_result_fini(&r); /* the same worker goes on */
    T_CHECK(pid > 0 && kill(pid, 0) == -1); /* gone, and reaped by the worker before its next job */
    /* One escaped process is counted once: not the fork that was ending
     * by itself, not the escapee again while it dies. */
    for (int i = 0; i < 20; i++) {
        *escapee = 0;
        T_CHECK(run(iso, "D", &r) == PBC_ISO_ESCAPE);
        T_CHECK(strstr(r.detail, "left 1 process running after its case (killed: pid ") != NULL);
        if (!strstr(r.detail, "left 1 process"))
            fprintf(stderr, "  %s\n", r.detail);
        pbc_iso_result_fini(&r);
    }
    pbc_iso_destroy(iso);
    munmap((void *)escapee, 4096);
}

T_TEST(last_words_survive_a_crash)
{
    pbc_iso_limits lim = {5.0, 0, 100, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    pbc_iso_result r;
    T_CHECK(run(iso, "w", &r) == PBC_ISO_CRASH);
    T_CHECK(r.output && strstr(r.output, PBC_KERNEL_ECHO_PREFIX "the last words: 7\n"));
    pbc_iso_result_fini(&r);
    pbc_iso_destroy(iso);
}

T_MAIN()
