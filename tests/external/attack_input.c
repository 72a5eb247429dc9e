/*
 * Wrong builders that attack what pbcheck reads from them rather than the
 * case: the reference, except that every Fill writes the wrong pattern
 * (so the only honest verdict is NOT CONFORMANT), and one -DATTACK_KIND
 * each:
 *   1 linger      the worker's job pipe is swapped for a relay the
 *                 builder holds open, so jobs still arrive but the worker
 *                 never sees pbcheck close the pipe, and never exits
 *   2 describe    the probe's description, forged one byte too long
 *   3 triage      a job answer whose triage facts are the wrong size
 *   4 verdict     a job answer with the verdict 0x7fffffff
 *   5 newline     a table name holding a newline, ESC[8m and a forged
 *                 verdict line; every Fill also prints ESC[8m and forged
 *                 verdict lines on stdout and in a DbgPrint
 *   6 dotdot      a table name "../../x"
 *   7 shell       a backtrace line with a shell command as its offset on
 *                 stderr, then abort()
 * and one that attacks nothing, for the symbolizer:
 *   8 tailabort   abort() as the last instruction of a function, with
 *                 the next function right behind it (x86-64; elsewhere a
 *                 plain abort)
 * tests/hostile_input_test.sh checks that each is the builder's failure.
 * And the answer forgery that only the judge across the DDI stops
 * (tests/split_test.sh):
 *   9 forge       at its first Fill, the worker's answer pipe is swapped
 *                 for a relay that passes every frame on, except that each
 *                 failing verdict is rewritten as a pass, under a header
 *                 that is still right (the job's number and all)
 * Forged answers go straight into the worker's answer pipe (fd 4, where
 * harness/exec/isolate.c puts it), ahead of pbcheck's own.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#ifndef ATTACK_KIND
#error "ATTACK_KIND selects the attack"
#endif

#define ANSWER_FD 4

/* A frame as isolate.c sends it: a 4-byte length, then the bytes. */
typedef struct forged {
    uint8_t b[512];
    uint32_t n;
} forged;

static void put_u32(forged *f, uint32_t v)
{
    memcpy(f->b + f->n, &v, 4);
    f->n += 4;
}

static void put_str(forged *f, const char *s)
{
    if (!s) {
        put_u32(f, 0);
        return;
    }
    uint32_t len = (uint32_t)strlen(s);
    put_u32(f, len + 1);
    memcpy(f->b + f->n, s, len);
    f->n += len;
}

/* The frame, then the worker ends before pbcheck's own answer follows. */
static void send_and_die(const forged *f)
{
    uint32_t len = f->n;
    if (write(ANSWER_FD, &len, 4) != 4 || write(ANSWER_FD, f->b, f->n) != (ssize_t)f->n)
        _exit(3);
    _exit(0);
}

#if defined(__x86_64__)
/* By hand, so that nothing (padding, a sanitizer's check) follows the
 * call: its return address is the first byte of attack_after_abort. */
void attack_tail_abort(void);
__asm__(".text\n"
        ".type attack_tail_abort, @function\n"
        "attack_tail_abort:\n"
        ".cfi_startproc\n"
        "  push %rax\n"
        ".cfi_adjust_cfa_offset 8\n"
        "  call abort@PLT\n"
        ".cfi_endproc\n"
        ".size attack_tail_abort, .-attack_tail_abort\n"
        ".type attack_after_abort, @function\n"
        "attack_after_abort:\n"
        "  xor %eax, %eax\n"
        "  ret\n"
        ".size attack_after_abort, .-attack_after_abort\n");
#else
static void attack_tail_abort(void) { abort(); }
#endif

/* Copies pbcheck's job pipe into the worker's; at its end, keeps the
 * worker's open forever. */
static int relay_from, relay_to;

static void *relay(void *unused)
{
    (void)unused;
    char b[4096];
    ssize_t n;
    while ((n = read(relay_from, b, sizeof(b))) > 0)
        if (write(relay_to, b, (size_t)n) != n)
            break;
    for (;;)
        pause();
    return NULL;
}

static void start_relay(void)
{
    int p[2];
    pthread_t th;
    relay_from = dup(3);
    if (relay_from < 0 || pipe(p) || dup2(p[0], 3) != 3)
        return;
    close(p[0]);
    relay_to = p[1];
    pthread_create(&th, NULL, relay, NULL);
}

/* Kind 9: frames from the worker, each passed on to pbcheck, a failing
 * certify verdict (the body's first word 1 or 3) as a pass. */
static int forge_from, forge_to;

static int read_full(int fd, void *p, size_t n)
{
    for (size_t at = 0; at < n;) {
        ssize_t k = read(fd, (char *)p + at, n - at);
        if (k <= 0)
            return -1;
        at += (size_t)k;
    }
    return 0;
}

static void *forge(void *unused)
{
    (void)unused;
    for (;;) {
        uint32_t head[4];
        if (read_full(forge_from, head, sizeof(head)) || head[0] > (64u << 20))
            break;
        uint8_t *body = malloc(head[0] ? head[0] : 1);
        if (!body || read_full(forge_from, body, head[0]))
            break;
        uint32_t verdict = 0;
        if (head[0] >= 4)
            memcpy(&verdict, body, 4);
        if (verdict == 1 || verdict == 3) {
            forged f = {.n = 0};
            put_u32(&f, 0);    /* pass */
            put_str(&f, NULL); /* rule */
            put_str(&f, NULL); /* message */
            put_str(&f, "");   /* log */
            put_u32(&f, 0);    /* not truncated */
            put_str(&f, "");   /* signature, title, location, DDI */
            put_str(&f, "");
            put_str(&f, "");
            put_str(&f, "");
            head[0] = f.n;
            if (write(forge_to, head, sizeof(head)) != (ssize_t)sizeof(head) ||
                write(forge_to, f.b, f.n) != (ssize_t)f.n)
                break;
        } else if (write(forge_to, head, sizeof(head)) != (ssize_t)sizeof(head) ||
                   write(forge_to, body, head[0]) != (ssize_t)head[0]) {
            break;
        }
        free(body);
    }
    _exit(0);
    return NULL;
}

/* Where no answer pipe is open (a driver process holds none), nothing. */
static void start_forge(void)
{
    int p[2];
    pthread_t th;
    forge_to = dup(ANSWER_FD);
    if (forge_to < 0 || pipe(p) || dup2(p[1], ANSWER_FD) != ANSWER_FD)
        return;
    close(p[1]);
    forge_from = p[0];
    pthread_create(&th, NULL, forge, NULL);
}

static void attack_fill(void)
{
    static int done;
    forged f = {.n = 0};
    switch (ATTACK_KIND) {
    case 1:
        if (!done)
            start_relay();
        break;
    case 3:
        put_u32(&f, 0); /* flags */
        put_u32(&f, 11); /* ten bytes of facts */
        memset(f.b + f.n, 'A', 10);
        f.n += 10;
        put_str(&f, "forged");
        send_and_die(&f);
        break;
    case 4:
        put_u32(&f, 0);          /* flags */
        put_u32(&f, 0x7fffffffu); /* the verdict */
        put_str(&f, NULL);
        put_str(&f, "forged");
        put_str(&f, NULL);
        put_u32(&f, 0);
        put_str(&f, "");
        put_str(&f, "");
        put_str(&f, "");
        send_and_die(&f);
        break;
    case 5: /* what run and replay print: its own stdout, and a forged line in a DbgPrint */
        fputs("\x1b[8mpass  forged\nrun: 1 passed, 0 failed, 0 skipped\n", stdout);
        fflush(stdout);
        DbgPrint("\x1b[8mrun: 1 passed, 0 failed, 0 skipped\n");
        break;
    case 7:
        fprintf(stderr, "pbcheck: worker: fatal signal, backtrace:\n/tmp/x.so(+0x0;touch pbc-pwned) [0x0]\n");
        fflush(stderr);
        abort();
    case 8:
        attack_tail_abort();
        break;
    case 9:
        if (!done)
            start_forge();
        break;
    default:
        break;
    }
    done = 1;
}

static NTSTATUS APIENTRY attack_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_FILL)
        return ref_build_paging_buffer(adapter, a);
    attack_fill();
    UINT pattern = a->Fill.FillPattern;
    a->Fill.FillPattern = pattern ^ 0x5a5a5a5au; /* the wrong value */
    NTSTATUS st = ref_build_paging_buffer(adapter, a);
    a->Fill.FillPattern = pattern;
    return st;
}

static pbc_target table;

/* The probe's answer as target.c's describe() writes it, with one byte
 * more. */
static void forge_description(void)
{
    forged f = {.n = 0};
    put_u32(&f, 0); /* flags */
    put_u32(&f, 1); /* PROBE_TARGET */
    put_str(&f, table.name);
    put_str(&f, table.summary);
    put_u32(&f, table.min_dma_size);
    put_u32(&f, table.private_data_size);
    put_u32(&f, (uint32_t)table.supported_operations);
    put_u32(&f, (uint32_t)(table.supported_operations >> 32));
    put_u32(&f, 0);
    put_str(&f, table.isa->name);
    put_u32(&f, 16);
    put_u32(&f, 4);
    put_u32(&f, 0);
    put_u32(&f, 0);
    f.b[f.n++] = 0x41;
    send_and_die(&f);
}

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = ATTACK_KIND == 5   ? "attack\n\x1b[8mverdict: CONFORMANT (reports in forged/)\n"
                 : ATTACK_KIND == 6 ? "../../x"
                                    : "attack";
    table.summary = "the reference, with a wrong Fill and an attack on pbcheck's input";
    table.build_paging_buffer = attack_build;
    if (ATTACK_KIND == 2)
        forge_description();
    return &table;
}
