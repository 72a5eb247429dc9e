/*
 * Provenance: enough to tell, months later, whether a report still
 * speaks for the binary in hand. Digests are XXH3-128 (the project's hash
 * already; collisions are not a concern at this scale, forgery is out of
 * scope: a report is not a signature). The CPU and host describe where
 * the timings were taken.
 */
#include "certify/provenance.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/util.h"

static void hex128(XXH128_hash_t h, char hex[33])
{
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", c.digest[i]);
}

int pbc_provenance_digest_file(const char *path, char hex[33], char *err, size_t err_size)
{
    hex[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && err_size)
            snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    enum { CHUNK = 1 << 16 };
    char *buf = pbc_xmalloc(CHUNK);
    size_t got;
    while ((got = fread(buf, 1, CHUNK, f)) > 0)
        XXH3_128bits_update(st, buf, got);
    int bad = ferror(f);
    fclose(f);
    free(buf);
    if (!bad)
        hex128(XXH3_128bits_digest(st), hex);
    XXH3_freeState(st);
    if (bad && err && err_size)
        snprintf(err, err_size, "cannot read %s: read error", path);
    return bad ? -1 : 0;
}

void pbc_provenance_suite(pbc_report_provenance *p, const pbc_case_list *cases, uint32_t count)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    for (uint32_t i = 0; i < count && i < cases->count; i++) {
        XXH3_128bits_update(st, cases->items[i].name, strlen(cases->items[i].name) + 1);
        XXH3_128bits_update(st, cases->items[i].text, strlen(cases->items[i].text) + 1);
    }
    hex128(XXH3_128bits_digest(st), p->suite_xxh3);
    XXH3_freeState(st);
    p->suite_cases = count;
}

/* /proc/cpuinfo's first "model name" (x86) or "Model"/"Hardware" (Arm). */
static void cpu_model(char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (!out[0] && fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (!colon || (strncmp(line, "model name", 10) && strncmp(line, "Model", 5) && strncmp(line, "Hardware", 8)))
            continue;
        char *v = colon + 1;
        v += strspn(v, " \t");
        v[strcspn(v, "\n")] = 0;
        snprintf(out, n, "%s", v);
    }
    fclose(f);
}

int pbc_provenance_collect(pbc_report_provenance *p, const char *library_path, time_t now, char *err,
                           size_t err_size)
{
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(p->started, sizeof(p->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(p->host, sizeof(p->host)))
        p->host[0] = 0;
    p->host[sizeof(p->host) - 1] = 0;
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(p->os, sizeof(p->os), "%s %s %s", u.sysname, u.release, u.machine);
    cpu_model(p->cpu_model, sizeof(p->cpu_model));
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->cpu_count = cpus > 0 ? (uint32_t)cpus : 0;
    p->target_builtin = library_path == NULL;
    if (library_path) {
        /* Absolute, so the report names the file wherever it is read. */
        char cwd[2048];
        if (library_path[0] != '/' && getcwd(cwd, sizeof(cwd)))
            snprintf(p->target_binary, sizeof(p->target_binary), "%s/%s", cwd, library_path);
        else
            snprintf(p->target_binary, sizeof(p->target_binary), "%s", library_path);
    } else {
        ssize_t len = readlink("/proc/self/exe", p->target_binary, sizeof(p->target_binary) - 1);
        p->target_binary[len > 0 ? len : 0] = 0;
    }
    const char *digested = library_path ? p->target_binary : "/proc/self/exe";
    return pbc_provenance_digest_file(digested, p->target_xxh3, err, err_size);
}
