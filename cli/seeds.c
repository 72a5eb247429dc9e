/*
 * The seed corpus, wherever pbcheck is: an installed package keeps it in
 * PREFIX/share/pbcheck/seeds (found from the executable's own place, so
 * the prefix may move), a build tree uses the source tree's corpus/seeds.
 * `pbcheck run` with no scenario runs it, and `pbcheck fuzz` starts an
 * empty corpus from it.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "cli.h"

#ifndef PBC_SOURCE_DIR
#define PBC_SOURCE_DIR "."
#endif

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *pbc_cli_seeds_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0])
        return dir;
    char self[PATH_MAX];
    pbc_cli_self_dir(self, sizeof(self));
    char installed[PATH_MAX];
    snprintf(installed, sizeof(installed), "%.4000s/../share/pbcheck/seeds", self);
    if (!is_dir(installed) || !realpath(installed, dir))
        snprintf(dir, sizeof(dir), "%s", PBC_SOURCE_DIR "/corpus/seeds");
    return dir;
}

/* The paths stay alive for the process: pbc_cli_args borrows its strings. */
static char **seed_paths;
static uint32_t seed_count, seed_cap;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pbc_cli_default_seeds(const char *verb, pbc_cli_args *files)
{
    const char *dir = pbc_cli_seeds_dir();
    DIR *d = opendir(dir);
    if (!d)
        return pbc_usage_error("%s: no scenario given, and no seed corpus in %s (try 'pbcheck %s --help')", verb,
                               dir, verb);
    uint32_t first = seed_count;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".pbs")) {
            char *path = pbc_xprintf("%s/%s", dir, e->d_name);
            PBC_PUSH(seed_paths, seed_count, seed_cap, path);
        }
    }
    closedir(d);
    if (seed_count == first)
        return pbc_usage_error("%s: no scenario given, and %s has no .pbs seeds", verb, dir);
    qsort(seed_paths + first, seed_count - first, sizeof(*seed_paths), by_name);
    free(files->pos);
    files->pos = pbc_xmalloc((seed_count - first) * sizeof(*files->pos));
    files->count = (int)(seed_count - first);
    for (uint32_t i = first; i < seed_count; i++)
        files->pos[i - first] = seed_paths[i];
    printf("%s: the seed corpus, %s (%d scenarios)\n", verb, dir, files->count);
    return PBC_CLI_GO;
}
