/*
 * File-system helpers shared by every verb that leaves files behind:
 * reports, reproducers, corpora, benchmark results. They exist so that each
 * of those writers fails the same way (one line naming the path and the
 * reason) and so that an interrupted run never leaves a truncated
 * report.json for CI to trip over.
 */
#include "base/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

static int fail(char *err, size_t err_size, const char *verb, const char *path, const char *why)
{
    if (err && err_size)
        snprintf(err, err_size, "cannot %s %s: %s", verb, path, why);
    return -1;
}

/* A single mkdir that accepts an existing folder (made by us earlier, or by
 * a concurrent run sharing the output tree). A symbolic link that leads
 * nowhere is said to be one: mkdir's "File exists" would not tell. */
static int mkdir_one(const char *path, const char **why)
{
    *why = NULL;
    if (mkdir(path, 0777) == 0)
        return 0;
    int saved = errno;
    struct stat st;
    if (saved == EEXIST && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        saved = ENOTDIR;
    } else if (saved == EEXIST && (errno == ENOENT || errno == ELOOP) && lstat(path, &st) == 0 &&
               S_ISLNK(st.st_mode)) {
        *why = errno == ELOOP ? "a symbolic link in a loop" : "a symbolic link to nothing (dangling)";
    }
    errno = saved;
    return -1;
}

int pbc_fs_mkdirs(const char *path, char *err, size_t err_size)
{
    if (!path[0])
        return fail(err, err_size, "create", "''", "empty path");
    char *buf = pbc_xstrdup(path);
    int rc = 0;
    const char *why = NULL;
    /* Each '/' after a name ends a parent; repeated slashes are skipped so
     * "a//b" does not try to create "a/" twice. */
    for (char *p = buf + 1; *p && rc == 0; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = 0;
        rc = mkdir_one(buf, &why);
        if (rc && why) { /* the parent at fault, named */
            if (err && err_size)
                snprintf(err, err_size, "cannot create %s: %s is %s", path, buf, why);
            free(buf);
            return -1;
        }
        *p = '/';
    }
    if (rc == 0)
        rc = mkdir_one(buf, &why);
    if (rc)
        fail(err, err_size, "create", path, why ? why : strerror(errno));
    free(buf);
    return rc;
}

/* Writes all n bytes to fd; 0, or the errno of the failure. */
static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A device or FIFO: written into, since renaming over it would replace
 * the device node (as root, /dev/null itself) rather than write to it. */
static int write_in_place(const char *path, const void *data, size_t n, char *err, size_t err_size)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return fail(err, err_size, "write", path, strerror(errno));
    int saved = write_all(fd, data, n);
    /* Most devices cannot be synced (EINVAL); their writes already failed
     * or succeeded. */
    if (!saved && fsync(fd) && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
        saved = errno;
    if (close(fd) && !saved)
        saved = errno;
    return saved ? fail(err, err_size, "write", path, strerror(saved)) : 0;
}

int pbc_fs_write_atomic(const char *path, const void *data, size_t n, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return fail(err, err_size, "write", path, strerror(EISDIR));
        return write_in_place(path, data, n, err, err_size);
    }
    /* O_EXCL with the pid and a counter in the name: two pbcheck processes
     * writing the same report never share a temporary file. */
    static unsigned counter;
    char *tmp = NULL;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        free(tmp);
        tmp = pbc_xprintf("%s.tmp-%ld-%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        fail(err, err_size, "write", path, strerror(errno));
        free(tmp);
        return -1;
    }
    int saved = write_all(fd, data, n);
    if (!saved && fsync(fd))
        saved = errno;
    if (close(fd) && !saved) /* NFS reports write errors here */
        saved = errno;
    if (!saved && rename(tmp, path))
        saved = errno;
    if (saved) {
        unlink(tmp);
        free(tmp);
        return fail(err, err_size, "write", path, strerror(saved));
    }
    free(tmp);
    /* The rename is durable once the folder itself is synced. A file
     * system that cannot sync a folder (EINVAL) still has the complete
     * file; one that fails to (EIO) may lose it, and says so. */
    char *dir = pbc_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = 0; /* the root folder */
    else if (slash)
        *slash = 0;
    int dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        if (fsync(dfd) && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
            saved = errno;
        close(dfd);
    }
    free(dir);
    return saved ? fail(err, err_size, "write", path, strerror(saved)) : 0;
}

FILE *pbc_fs_open_file(const char *path, const char **why)
{
    /* Without blocking: a FIFO with no writer would hold open() forever.
     * Only a regular file is read (a FIFO, a device or a folder is no
     * file to read whole). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        *why = strerror(errno);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file";
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) ? NULL : fdopen(fd, "rb");
    if (!f) {
        *why = strerror(errno);
        close(fd);
    }
    return f;
}

int pbc_fs_read(const char *path, size_t max, char **data, size_t *n, char *err, size_t err_size)
{
    *data = NULL;
    *n = 0;
    const char *why;
    FILE *f = pbc_fs_open_file(path, &why);
    if (!f)
        return fail(err, err_size, "open", path, why);
    size_t cap = 4096, len = 0;
    char *buf = pbc_xmalloc(cap + 1);
    for (;;) {
        if (len == cap) {
            if (cap > max)
                break;
            cap *= 2;
            buf = pbc_xrealloc(buf, cap + 1);
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int rd_err = ferror(f);
    fclose(f);
    if (rd_err || len > max) {
        free(buf);
        if (rd_err)
            return fail(err, err_size, "read", path, "read error");
        char too_large[64];
        snprintf(too_large, sizeof(too_large), "larger than %zu bytes", max);
        return fail(err, err_size, "read", path, too_large);
    }
    buf[len] = 0;
    *data = buf;
    *n = len;
    return 0;
}

int pbc_fs_remove_tree(const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (lstat(path, &st))
        return errno == ENOENT ? 0 : fail(err, err_size, "remove", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return fail(err, err_size, "remove", path, strerror(errno));
        int rc = 0;
        for (struct dirent *e; rc == 0 && (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *child = pbc_xprintf("%s/%s", path, e->d_name);
            rc = pbc_fs_remove_tree(child, err, err_size);
            free(child);
        }
        closedir(d);
        if (rc)
            return rc;
        if (rmdir(path))
            return fail(err, err_size, "remove", path, strerror(errno));
        return 0;
    }
    if (unlink(path))
        return fail(err, err_size, "remove", path, strerror(errno));
    return 0;
}

uint32_t pbc_fs_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    uint32_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

char *pbc_fs_absolute(const char *path)
{
    char cwd[4096];
    if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        return pbc_xstrdup(path);
    while (path[0] == '.' && path[1] == '/') /* ./x is x */
        path += 2;
    return pbc_xprintf("%s/%s", cwd, path);
}
