/*
 * Progress lines (progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "cli.h"

void pbc_progress_begin(pbc_progress *p, const char *what)
{
    p->what = what;
    p->tty = isatty(STDERR_FILENO);
    p->started = p->last = pbc_cli_now();
    p->interval = p->tty ? 0.1 : 5.0;
    p->drawn = 0;
}

void pbc_progress_tick(pbc_progress *p, uint64_t done, uint64_t total, uint64_t failed, double deadline_left,
                       const char *label)
{
    double now = pbc_cli_now();
    if (now - p->last < p->interval)
        return;
    p->last = now;
    double elapsed = now - p->started, rate = elapsed > 0 ? (double)done / elapsed : 0;
    double left = deadline_left >= 0 ? deadline_left
                  : total && rate > 0 ? (double)(total - (done < total ? done : total)) / rate
                                      : -1;
    char count[64], eta[32] = "";
    if (total)
        snprintf(count, sizeof(count), "%llu/%llu", (unsigned long long)done, (unsigned long long)total);
    else
        snprintf(count, sizeof(count), "%llu", (unsigned long long)done);
    if (left >= 0)
        snprintf(eta, sizeof(eta), ", %.0f s left", left);
    if (p->tty) {
        fprintf(stderr, "\r%s: %s, %llu failed, %.0f/s%s  %-40.40s", p->what, count, (unsigned long long)failed,
                rate, eta, label ? label : "");
        p->drawn = 1;
    } else {
        fprintf(stderr, "%s: %s done, %llu failed, %.0f/s%s\n", p->what, count, (unsigned long long)failed, rate,
                eta);
    }
    fflush(stderr);
}

void pbc_progress_end(pbc_progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\r%*s\r", 110, "");
    p->drawn = 0;
}
