/*
 * The run folder. Everything that can make the reports unwritable (a
 * missing permission, a read-only or full file system, a file where a
 * folder should be) is met here, before the suite spends minutes: the
 * folder is created and a probe file is written, synced and removed.
 */
#include "certify/rundir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/util.h"

static int fail(char *err, size_t err_size, const char *verb, const char *path, const char *why)
{
    if (err && err_size)
        snprintf(err, err_size, "cannot %s %s: %s", verb, path, why);
    return -1;
}

/* A probe the size of a small report: a full file system refuses it. */
static int probe(const char *dir, char *err, size_t err_size)
{
    char *path = pbc_xprintf("%s/.probe-%ld", dir, (long)getpid());
    char *data = pbc_xcalloc(1, 4096);
    int rc = pbc_fs_write_atomic(path, data, 4096, err, err_size);
    if (rc == 0 && unlink(path))
        rc = fail(err, err_size, "write", path, strerror(errno));
    free(data);
    free(path);
    return rc;
}

static int link_latest(const pbc_rundir *d, char *err, size_t err_size)
{
    char *latest = pbc_xprintf("%s/latest", d->out);
    char *tmp = pbc_xprintf("%s/.latest-%ld", d->out, (long)getpid());
    unlink(tmp); /* a link left by a killed run with this pid */
    int rc = 0;
    if (symlink(d->run_id, tmp) || rename(tmp, latest)) {
        rc = fail(err, err_size, "write", latest, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    free(latest);
    return rc;
}

int pbc_rundir_create(pbc_rundir *d, const char *out, const char *run_id, time_t now, char *err,
                      size_t err_size)
{
    memset(d, 0, sizeof(*d));
    d->out = pbc_xstrdup(out);
    if (pbc_fs_mkdirs(out, err, err_size))
        return -1;
    if (run_id) {
        if (!run_id[0] || strchr(run_id, '/') || !strcmp(run_id, ".") || !strcmp(run_id, "..") ||
            !strcmp(run_id, "latest") || strlen(run_id) >= sizeof(d->run_id))
            return fail(err, err_size, "create", run_id, "not a run folder name");
        snprintf(d->run_id, sizeof(d->run_id), "%s", run_id);
        d->path = pbc_xprintf("%s/%s", out, d->run_id);
        if (pbc_fs_mkdirs(d->path, err, err_size))
            return -1;
    } else {
        struct tm tm;
        char stamp[32];
        gmtime_r(&now, &tm);
        strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
        for (unsigned n = 1;; n++) {
            if (n == 1)
                snprintf(d->run_id, sizeof(d->run_id), "%s-%ld", stamp, (long)getpid());
            else
                snprintf(d->run_id, sizeof(d->run_id), "%s-%ld-%u", stamp, (long)getpid(), n);
            free(d->path);
            d->path = pbc_xprintf("%s/%s", out, d->run_id);
            if (mkdir(d->path, 0777) == 0)
                break;
            if (errno != EEXIST || n == 1000)
                return fail(err, err_size, "create", d->path, strerror(errno));
        }
    }
    char *repro = pbc_xprintf("%s/repro", d->path);
    int rc = pbc_fs_mkdirs(repro, err, err_size);
    free(repro);
    if (rc == 0)
        rc = probe(d->path, err, err_size);
    if (rc == 0)
        rc = link_latest(d, err, err_size);
    return rc;
}

void pbc_rundir_fini(pbc_rundir *d)
{
    free(d->out);
    free(d->path);
    memset(d, 0, sizeof(*d));
}
