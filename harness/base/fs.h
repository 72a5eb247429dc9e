/*
 * fs.h — the file-system chores every verb needs: making folders, writing
 * a file so that readers see the old one or the new one but never half of
 * it, reading a file whole, removing a scratch folder.
 *
 * Each function returns 0 on success; on failure it returns -1 and, when
 * err is not NULL, writes one line "cannot VERB PATH: reason" into err.
 */
#ifndef PBCHECK_FS_H
#define PBCHECK_FS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mkdir -p: creates path and each missing parent (mode 0777 less umask).
 * An existing folder is success; an existing non-folder is an error. */
int pbc_fs_mkdirs(const char *path, char *err, size_t err_size);

/* Replaces path with n bytes of data: writes a temporary file in the same
 * folder, fsyncs it, closes it (checking), renames it over path and
 * fsyncs the folder. On failure path is untouched and the temporary file
 * is gone. A path that exists and is not a regular file (a device such as
 * /dev/null, a FIFO; or a link to one) cannot be replaced: the data is
 * written into it. */
int pbc_fs_write_atomic(const char *path, const void *data, size_t n, char *err, size_t err_size);

/* Opens path to read it, only when it is a regular file (or a link to
 * one), never blocking in open() (a FIFO with no writer); NULL with *why
 * ("not a regular file", or the system's reason) otherwise. */
FILE *pbc_fs_open_file(const char *path, const char **why);

/* Reads all of path into *data (owned, NUL-terminated beyond *n). A file
 * larger than max bytes is an error ("larger than MAX bytes"). */
int pbc_fs_read(const char *path, size_t max, char **data, size_t *n, char *err, size_t err_size);

/* rm -rf for the scratch folders pbcheck made itself; symbolic links are
 * removed, never followed. */
int pbc_fs_remove_tree(const char *path, char *err, size_t err_size);
/* Entries of a folder, leaving out those whose names start with '.'; 0
 * when it cannot be read. */
uint32_t pbc_fs_count_entries(const char *dir);

/* path as an absolute path (the current folder before a relative one; not
 * resolved, need not exist), malloc'd: for commands a report prints, which
 * are run from anywhere. */
char *pbc_fs_absolute(const char *path);

#ifdef __cplusplus
}
#endif

#endif
