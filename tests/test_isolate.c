/* Worker isolation (exec/isolate.h): each way a job can go wrong is
 * classified, the worker is replaced after it, and answers come back
 * intact. The job's first byte says what to do. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/isolate.h"
#include "t.h"

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
        for (volatile int spin = 0;; spin++)
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
    default:
        break;
    }
    pbc_iso_buf b = {0};
    pbc_iso_put_u32(&b, (uint32_t)getpid());
    pbc_iso_put_str(&b, (const char *)in + 1);
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
    pbc_iso_reader in = {r.answer, r.answer_len, 0};
    uint32_t first_pid = pbc_iso_get_u32(&in);
    char *echo = pbc_iso_get_str(&in);
    T_CHECK(echo && strcmp(echo, "hello") == 0 && first_pid != (uint32_t)getpid());
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
        {"m", PBC_ISO_OOM, "over the limit of 256.0 MiB"},
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
        pbc_iso_reader again = {r.answer, r.answer_len, 0};
        T_CHECK(pbc_iso_get_u32(&again) != first_pid);
        pbc_iso_result_fini(&r);
    }
    pbc_iso_destroy(iso);
}

T_TEST(workers_are_replaced_after_a_batch)
{
    pbc_iso_limits lim = {0, 0, 2, 0};
    pbc_iso *iso = pbc_iso_create(&lim, job, NULL);
    uint32_t pid[4];
    for (int k = 0; k < 4; k++) {
        pbc_iso_result r;
        T_CHECK(run(iso, "e", &r) == PBC_ISO_OK);
        pbc_iso_reader in = {r.answer, r.answer_len, 0};
        pid[k] = pbc_iso_get_u32(&in);
        pbc_iso_result_fini(&r);
    }
    T_CHECK(pid[0] == pid[1] && pid[1] != pid[2] && pid[2] == pid[3]);
    pbc_iso_destroy(iso);
}

T_MAIN()
