/*
 * seeds.h — the seed corpus (every .pbs file of corpus/seeds) loaded once per test
 * program, for tests that sweep it: seeds[i] is named seed_names[i].
 */
#ifndef PBCHECK_TEST_SEEDS_H
#define PBCHECK_TEST_SEEDS_H

#include <dirent.h>

#include "scenario/scenario.h"
#include "t.h"

#define MAX_SEEDS 96

static pbc_scenario seeds[MAX_SEEDS];
static char seed_names[MAX_SEEDS][256];
static int nseeds;

static void load_seeds(void)
{
    if (nseeds)
        return;
    DIR *d = opendir(PBC_SEEDS_DIR);
    T_CHECK(d != NULL);
    for (struct dirent *e; d && (e = readdir(d)) && nseeds < MAX_SEEDS;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pbs"))
            continue;
        char path[1024], err[512];
        snprintf(path, sizeof(path), "%s/%s", PBC_SEEDS_DIR, e->d_name);
        T_CHECK_MSG(pbc_scenario_load(path, &seeds[nseeds], err, sizeof(err)) == 0, "%s", err);
        snprintf(seed_names[nseeds], sizeof(seed_names[0]), "%s", e->d_name);
        nseeds++;
    }
    if (d)
        closedir(d);
}

#endif
