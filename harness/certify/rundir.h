/*
 * rundir.h — where one certify run leaves its files: a fresh folder
 * OUT/RUN-ID (RUN-ID is the UTC start time and the process id, e.g.
 * 20261124T061500Z-4242), so nothing of an earlier run can sit beside a
 * new verdict, and OUT/latest, a symbolic link to it.
 */
#ifndef PBCHECK_REPORT_RUNDIR_H
#define PBCHECK_REPORT_RUNDIR_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbc_rundir {
    char *out;        /* OUT, as given */
    char *path;       /* OUT/RUN-ID */
    char run_id[64];
} pbc_rundir;

/* Creates OUT (and its parents) and a new run folder in it with repro/,
 * proves it writable (a probe file written, synced and removed), then
 * points OUT/latest at it (a new link renamed over the old one). run_id
 * NULL: one from now and the process id, made unique if taken; else that
 * name, a folder that may already exist (tests prepare one). 0, or -1
 * with "cannot create|write PATH: why" in err. */
int pbc_rundir_create(pbc_rundir *d, const char *out, const char *run_id, time_t now, char *err,
                      size_t err_size);
void pbc_rundir_fini(pbc_rundir *d);

#ifdef __cplusplus
}
#endif

#endif
