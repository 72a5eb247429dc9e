/*
 * Hostile builders: the reference, except that it misbehaves the way a
 * vendor's code under test can, on every Fill operation (so the suite's
 * other cases still pass). One -DHOSTILE_KIND each:
 *   1 segfault   2 abort        3 exit(0)         4 endless loop
 *   5 endless INSUFFICIENT_DMA_BUFFER             6 100 GiB malloc, touched
 *   7 stack overflow            8 raise(SIGKILL)  9 wild write into harness memory
 * and, aimed at pbcheck itself rather than at the case:
 *  10 SIGKILL to its parent    11 SIGSTOP to its parent
 *  12 SIGTERM to its parent    13 SIGINT to its process group
 *  14 a setsid grandchild left running (named pbc-escapee)
 *  15 DbgPrint, then a segfault
 * and while it is loaded (no case ever runs):
 *  16 constructor exit(0)      17 constructor segfault
 *  18 constructor endless loop 19 pbc_target_get segfault
 * and one that behaves but declares no operation, so nothing is judged:
 *  20 supported_operations 0
 * and ways around the obvious calls:
 *  21 SIGTERM to its parent as a file's owner (F_SETOWN, F_SETSIG, O_ASYNC)
 *  22 a child made pbcheck's own (clone with CLONE_PARENT), left running
 *  23 gives up being a subreaper, then a double fork left running
 *  24 writes a line into every descriptor it inherited (the journal among them)
 * tests/hostile_test.sh checks that certify survives each, classifies the
 * bad cases, passes the good ones and writes valid reports.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#ifndef HOSTILE_KIND
#error "HOSTILE_KIND selects the misbehaviour"
#endif

static volatile uint32_t sink;

static uint32_t recurse(volatile uint8_t *prev, uint32_t depth)
{
    volatile uint8_t frame[4096];
    frame[0] = (uint8_t)depth;
    frame[4095] = prev ? prev[0] : 0;
    if (depth == UINT32_MAX - sink) /* never: the stack runs out long before */
        return 0;
    return recurse(frame, depth + 1) + frame[4095]; /* not a tail call */
}

static void misbehave(void)
{
    switch (HOSTILE_KIND) {
    case 1:
        *(volatile uint32_t *)(uintptr_t)sink = 1; /* sink is 0: a NULL store */
        break;
    case 2:
        abort();
    case 3:
        exit(0);
    case 4:
        for (;;)
            sink++;
    case 6: { /* unchecked, as real code often is: NULL (a crash) when the allocation fails */
        size_t n = (size_t)100 << 30;
        volatile uint8_t *p = malloc(n);
        for (size_t i = 0; i < n; i += 4096)
            p[i] = 1;
        sink = p[0];
        break;
    }
    case 7:
        sink = recurse(NULL, 0);
        break;
    case 8:
        raise(SIGKILL);
        break;
    case 9: { /* scribbles over the heap around its own allocation: the harness's neighbours */
        volatile uint8_t *p = malloc(64);
        for (size_t i = 0; i < (64u << 20); i += 8)
            p[(intptr_t)i - (32 << 20)] = 0xA5;
        break;
    }
    case 10:
        kill(getppid(), SIGKILL);
        break;
    case 11:
        kill(getppid(), SIGSTOP);
        break;
    case 12:
        kill(getppid(), SIGTERM);
        break;
    case 13:
        kill(0, SIGINT);
        break;
    case 14:
        if (fork() == 0) { /* detaches as a daemon does: a new session, a second fork, the first gone */
            setsid();
            if (fork() == 0) {
                prctl(PR_SET_NAME, "pbc-escapee");
                sleep(20);
                FILE *f = fopen("/tmp/pbc-escapee-was-here", "w");
                if (f)
                    fclose(f);
            }
            _exit(0);
        }
        break;
    case 21: {
        int fds[2];
        if (pipe(fds) == 0) {
            fcntl(fds[0], F_SETOWN, getppid());
            fcntl(fds[0], F_SETSIG, SIGTERM);
            fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_ASYNC);
            ssize_t ignored = write(fds[1], "x", 1);
            (void)ignored;
            close(fds[0]);
            close(fds[1]);
        }
        break;
    }
    case 22:
        if (syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0) == 0) {
            prctl(PR_SET_NAME, "pbc-escapee");
            sleep(20);
            _exit(0);
        }
        break;
    case 23:
        prctl(PR_SET_CHILD_SUBREAPER, 0);
        if (fork() == 0) {
            if (fork() == 0) {
                prctl(PR_SET_NAME, "pbc-escapee");
                sleep(20);
            }
            _exit(0);
        }
        break;
    case 24:
        for (int fd = 3; fd < 1024; fd++) {
            ssize_t ignored = write(fd, "{\"forged\":true}\n", 16);
            (void)ignored;
        }
        break;
    case 15:
        DbgPrint("hostile: last words before the crash, fill of %d bytes\n", 42);
        *(volatile uint32_t *)(uintptr_t)sink = 1;
        break;
    default:
        break;
    }
}

#if HOSTILE_KIND >= 16 && HOSTILE_KIND <= 18
__attribute__((constructor)) static void hostile_load(void)
{
    if (HOSTILE_KIND == 16)
        exit(0);
    if (HOSTILE_KIND == 17)
        *(volatile uint32_t *)(uintptr_t)sink = 1;
    for (;;)
        sink++;
}
#endif

static NTSTATUS APIENTRY hostile_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_FILL) {
        if (HOSTILE_KIND == 5)
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        misbehave();
    }
    return ref_build_paging_buffer(adapter, a);
}

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    if (HOSTILE_KIND == 19)
        *(volatile uint32_t *)(uintptr_t)sink = 1;
    table = pbc_target_reference;
    table.name = "hostile";
    table.summary = "the reference, misbehaving on every Fill";
    table.build_paging_buffer = hostile_build;
    if (HOSTILE_KIND == 20)
        table.supported_operations = 0;
    return &table;
}
