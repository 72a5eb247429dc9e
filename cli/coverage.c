/*
 * Coverage of a vendor's builder code (`certify --coverage`, `fuzz
 * --coverage`): a run of the builder's coverage build, libNAME_cov.so
 * (pbcheck_add_target builds it with clang's source-based coverage), in
 * which every worker that loads it writes its own raw profile. certify
 * judges and fingerprints the library it was given, and measures with a
 * second run of the same suite on the coverage build. The profiles are
 * in continuous mode (%c, with -runtime-counter-relocation): the counters
 * live in the mapped file, so a worker that ends with _exit, is killed or
 * crashes still leaves what it ran. Afterwards LLVM's own tools merge them
 * (llvm-profdata) and report them (llvm-cov: HTML, and the JSON export
 * that the totals, the per-file table and the DDI entry points' uncovered
 * branches are read from). No profile is ever parsed here.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/util.h"
#include "cli.h"
#include "exec/isolate.h"
#include "coverage.h"

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The first of NAME-14 and NAME on the PATH; NULL if neither. */
static const char *llvm_tool(const char *name, char *out, size_t n)
{
    const char *path = getenv("PATH");
    const char *names[2] = {NULL, name};
    char versioned[64];
    snprintf(versioned, sizeof(versioned), "%s-14", name);
    names[0] = versioned;
    for (int k = 0; k < 2; k++) {
        for (const char *p = path ? path : "/usr/bin"; *p;) {
            size_t len = strcspn(p, ":");
            snprintf(out, n, "%.*s/%s", (int)len, p, names[k]);
            if (access(out, X_OK) == 0)
                return out;
            p += len + (p[len] == ':');
        }
    }
    return NULL;
}

int pbc_coverage_prepare(const char *verb, const char *target, pbc_coverage *c)
{
    memset(c, 0, sizeof(*c));
    const char *t = target;
    size_t len = strlen(t);
    if (!pbc_exec_target_is_path(t) || len < 4 || strcmp(t + len - 3, ".so"))
        return pbc_usage_error("%s: --coverage measures a builder library (--target path/libNAME.so), not '%s'",
                               verb, t);
    if (len > 7 && !strcmp(t + len - 7, "_cov.so"))
        snprintf(c->library, sizeof(c->library), "%s", t);
    else
        snprintf(c->library, sizeof(c->library), "%.*s_cov.so", (int)(len - 3), t);
    if (!is_file(c->library))
        return pbc_usage_error("%s: --coverage: no coverage build %s beside %s (pbcheck_add_target builds "
                               "libNAME_cov.so with clang)", verb, c->library, t);
    if (!llvm_tool("llvm-profdata", c->profdata, sizeof(c->profdata)) ||
        !llvm_tool("llvm-cov", c->cov, sizeof(c->cov)))
        return pbc_usage_error("%s: --coverage needs llvm-profdata-14 and llvm-cov-14 (apt-get install llvm-14)",
                               verb);
    const char *tmp = getenv("TMPDIR");
    snprintf(c->raw_dir, sizeof(c->raw_dir), "%.4000s/pbcheck-coverage-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c->raw_dir))
        return pbc_usage_error("%s: --coverage: cannot make a folder for the profiles: %s", verb, strerror(errno));
    /* %p: one file per worker; %c: continuous mode (see the top). */
    snprintf(c->profile_env, sizeof(c->profile_env), "LLVM_PROFILE_FILE=%.4000s/w-%%p%%c.profraw", c->raw_dir);
    c->on = 1;
    pbc_iso_set_writable(c->raw_dir); /* workers write nothing else outside their scratch folders */
    return 0;
}

int pbc_coverage_begin(const char *verb, const char **target, pbc_coverage *c)
{
    if (pbc_coverage_prepare(verb, *target, c))
        return PBC_EXIT_USAGE;
    setenv("LLVM_PROFILE_FILE", strchr(c->profile_env, '=') + 1, 1);
    *target = c->library;
    printf("%s: coverage of %s, profiles in %s\n", verb, c->library, c->raw_dir);
    return 0;
}

/* Runs argv with stdout to out_path (NULL: inherited), stderr to err_path. */
static int run_tool(char *const argv[], const char *out_path, const char *err_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        unsetenv("LLVM_PROFILE_FILE");
        if (out_path) {
            int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 1) < 0)
                _exit(126);
        }
        int fd = open(err_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0)
            dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Is this function one of the paging DDIs (by the name Windows gives them:
 * drivers call theirs DxgkDdiBuildPagingBuffer, FooBuildPagingBuffer, ...)? */
static int is_entry_point(const char *name)
{
    static const char *const ddis[] = {"BuildPagingBuffer", "Patch", "SubmitCommand"};
    const char *base = strrchr(name, ':'); /* a static function is FILE:NAME */
    base = base ? base + 1 : name;
    size_t n = strlen(base);
    for (size_t i = 0; i < PBC_ARRAY_LEN(ddis); i++) {
        size_t m = strlen(ddis[i]);
        if (n >= m && !strcasecmp(base + n - m, ddis[i]))
            return 1;
    }
    return 0;
}

/* Line `line` of a source file, trimmed, into out. */
static void source_line(const char *file, long line, char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen(file, "r");
    char buf[1024];
    for (long i = 1; f && fgets(buf, sizeof(buf), f); i++)
        if (i == line) {
            char *s = buf + strspn(buf, " \t");
            s[strcspn(s, "\r\n")] = 0;
            snprintf(out, n, "%s", s);
            break;
        }
    if (f)
        fclose(f);
}

static json_t *summary_of(json_t *summary, const char *what)
{
    json_t *s = json_object_get(summary, what);
    return json_pack("{s:I,s:I,s:f}", "count", json_integer_value(json_object_get(s, "count")), "covered",
                     json_integer_value(json_object_get(s, "covered")), "percent",
                     json_number_value(json_object_get(s, "percent")));
}

static void md_totals(FILE *md, const char *label, json_t *t)
{
    json_t *l = json_object_get(t, "lines"), *b = json_object_get(t, "branches"), *f = json_object_get(t, "functions");
    fprintf(md, "| %s | %lld/%lld (%.1f%%) | %lld/%lld (%.1f%%) | %lld/%lld (%.1f%%) |\n", label,
            json_integer_value(json_object_get(l, "covered")), json_integer_value(json_object_get(l, "count")),
            json_number_value(json_object_get(l, "percent")), json_integer_value(json_object_get(b, "covered")),
            json_integer_value(json_object_get(b, "count")), json_number_value(json_object_get(b, "percent")),
            json_integer_value(json_object_get(f, "covered")), json_integer_value(json_object_get(f, "count")),
            json_number_value(json_object_get(f, "percent")));
}

/* What the export says, as report.json's "coverage" object. */
static json_t *coverage_object(json_t *export, const char *html)
{
    json_t *data = json_array_get(json_object_get(export, "data"), 0);
    json_t *totals = json_object_get(data, "totals");
    json_t *out = json_pack("{s:s,s:o,s:o,s:o,s:[],s:[]}", "html", html, "lines", summary_of(totals, "lines"),
                            "branches", summary_of(totals, "branches"), "functions",
                            summary_of(totals, "functions"), "files", "uncovered_entry_branches");
    size_t i;
    json_t *file;
    json_array_foreach(json_object_get(data, "files"), i, file) {
        json_t *s = json_object_get(file, "summary");
        json_array_append_new(json_object_get(out, "files"),
                              json_pack("{s:O,s:o,s:o,s:o}", "file", json_object_get(file, "filename"), "lines",
                                        summary_of(s, "lines"), "branches", summary_of(s, "branches"),
                                        "functions", summary_of(s, "functions")));
    }
    json_t *fn;
    json_array_foreach(json_object_get(data, "functions"), i, fn) {
        const char *name = json_string_value(json_object_get(fn, "name"));
        if (!name || !is_entry_point(name))
            continue;
        const char *shown = strrchr(name, ':') ? strrchr(name, ':') + 1 : name;
        json_t *files = json_object_get(fn, "filenames"), *br;
        size_t k;
        json_array_foreach(json_object_get(fn, "branches"), k, br) {
            /* [line, col, end line, end col, true count, false count, file id, expanded file id, kind] */
            json_int_t taken = json_integer_value(json_array_get(br, 4));
            json_int_t not_taken = json_integer_value(json_array_get(br, 5));
            if (taken && not_taken)
                continue;
            long line = (long)json_integer_value(json_array_get(br, 0));
            const char *src = json_string_value(json_array_get(files, (size_t)json_integer_value(json_array_get(br, 6))));
            char text[512];
            source_line(src ? src : "", line, text, sizeof(text));
            const char *never = !taken && !not_taken ? "never reached" : !taken ? "never true" : "never false";
            json_array_append_new(json_object_get(out, "uncovered_entry_branches"),
                                  json_pack("{s:s,s:s,s:I,s:I,s:s,s:s}", "function", shown, "file", src ? src : "",
                                            "line", (json_int_t)line, "column", json_array_get(br, 1) ?
                                            json_integer_value(json_array_get(br, 1)) : 0, "outcome", never,
                                            "source", text));
        }
    }
    return out;
}

/* summary.md gets a section; index.html a section at the end of its
 * <main>, before the footer (before </body> in a page without one). */
static void add_to_reports(const char *dir, json_t *cov)
{
    char *path = pbc_xprintf("%s/summary.md", dir);
    FILE *md = fopen(path, "a");
    free(path);
    if (md) {
        fprintf(md, "\n## Coverage of the builder's code\n\n"
                    "Source-based coverage of the builder's own sources, every worker's profile merged "
                    "(HTML: [%s](%s)).\n\n| | lines | branches | functions |\n|---|---|---|---|\n",
                json_string_value(json_object_get(cov, "html")), json_string_value(json_object_get(cov, "html")));
        md_totals(md, "total", cov);
        size_t i;
        json_t *f;
        json_array_foreach(json_object_get(cov, "files"), i, f) {
            const char *name = json_string_value(json_object_get(f, "file"));
            md_totals(md, strrchr(name, '/') ? strrchr(name, '/') + 1 : name, f);
        }
        json_t *ub = json_object_get(cov, "uncovered_entry_branches");
        fprintf(md, "\nBranches of the DDI entry points (BuildPagingBuffer, Patch, SubmitCommand) not taken both "
                    "ways: %zu\n\n", json_array_size(ub));
        json_array_foreach(ub, i, f)
            fprintf(md, "- `%s` %s:%lld: %s: `%s`\n", json_string_value(json_object_get(f, "function")),
                    strrchr(json_string_value(json_object_get(f, "file")), '/')
                        ? strrchr(json_string_value(json_object_get(f, "file")), '/') + 1
                        : json_string_value(json_object_get(f, "file")),
                    json_integer_value(json_object_get(f, "line")), json_string_value(json_object_get(f, "outcome")),
                    json_string_value(json_object_get(f, "source")));
        fclose(md);
    }
    path = pbc_xprintf("%s/index.html", dir);
    char *html, err[PATH_MAX + 128];
    size_t n;
    if (pbc_fs_read(path, 64u << 20, &html, &n, err, sizeof(err)) == 0) {
        /* Inside the page, after its last section and before the footer. */
        char *end = strstr(html, "</main>");
        if (!end)
            end = strstr(html, "</body>");
        if (end) {
            char *out = pbc_xprintf("%.*s<section id=\"coverage\"><h2>Coverage of the builder's code</h2>"
                                    "<p>lines %.1f%%, branches %.1f%%, functions %.1f%%: "
                                    "<a href=\"%s\">llvm-cov's report, file by file</a>; summary.md lists the DDI "
                                    "entry points' branches not taken both ways.</p></section>\n%s",
                                    (int)(end - html), html,
                                    json_number_value(json_object_get(json_object_get(cov, "lines"), "percent")),
                                    json_number_value(json_object_get(json_object_get(cov, "branches"), "percent")),
                                    json_number_value(json_object_get(json_object_get(cov, "functions"), "percent")),
                                    json_string_value(json_object_get(cov, "html")), end);
            pbc_fs_write_atomic(path, out, strlen(out), err, sizeof(err));
            free(out);
        }
        free(html);
    }
    free(path);
}

int pbc_coverage_end(pbc_coverage *c, const char *dir)
{
    if (!c->on)
        return 0;
    pbc_iso_set_writable(NULL);
    unsetenv("LLVM_PROFILE_FILE");
    char err[PATH_MAX + 128];
    char *cov_dir = pbc_xprintf("%s/coverage", dir);
    char *list = pbc_xprintf("%s/profiles.txt", c->raw_dir);
    char *log = pbc_xprintf("%s/llvm.log", cov_dir);
    char *merged = pbc_xprintf("%s/coverage.profdata", cov_dir);
    char *export_path = pbc_xprintf("%s/export.json", cov_dir);
    char *html_dir = pbc_xprintf("%s/html", cov_dir);
    int rc = -1;
    if (pbc_fs_mkdirs(cov_dir, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: coverage: %s\n", err);
        goto out;
    }
    FILE *f = fopen(list, "w");
    uint32_t profiles = 0;
    DIR *d = opendir(c->raw_dir);
    for (struct dirent *e; f && d && (e = readdir(d));)
        if (strstr(e->d_name, ".profraw")) {
            fprintf(f, "%s/%s\n", c->raw_dir, e->d_name);
            profiles++;
        }
    if (d)
        closedir(d);
    if (f)
        fclose(f);
    if (!profiles) {
        fprintf(stderr, "pbcheck: coverage: no worker wrote a profile in %s\n", c->raw_dir);
        goto out;
    }
    /* pbcheck's own headers (inline helpers) are not the builder's code. */
    char ignore[] = "-ignore-filename-regex=(/include/pbcheck/|^/usr/)";
    char *lf = pbc_xprintf("-f=%s", list), *o = pbc_xprintf("-o=%s", merged);
    char *prof = pbc_xprintf("-instr-profile=%s", merged), *od = pbc_xprintf("-output-dir=%s", html_dir);
    char *merge_argv[] = {c->profdata, "merge", "-sparse", lf, o, NULL};
    char *export_argv[] = {c->cov, "export", "-format=text", c->library, prof, ignore, NULL};
    char *show_argv[] = {c->cov, "show", "-format=html", "-show-branches=count", "-show-line-counts-or-regions",
                         c->library, prof, ignore, od, NULL};
    int failed = run_tool(merge_argv, NULL, log) || run_tool(export_argv, export_path, log) ||
                 run_tool(show_argv, NULL, log);
    free(lf), free(o), free(prof), free(od);
    if (failed) {
        fprintf(stderr, "pbcheck: coverage: LLVM's tools failed: see %s\n", log);
        goto out;
    }
    json_error_t jerr;
    json_t *export = json_load_file(export_path, 0, &jerr);
    if (!export) {
        fprintf(stderr, "pbcheck: coverage: %s: %s\n", export_path, jerr.text);
        goto out;
    }
    json_t *cov = coverage_object(export, "coverage/html/index.html");
    json_decref(export);
    json_object_set_new(cov, "profiles", json_integer(profiles));
    json_object_set_new(cov, "library", json_string(c->library));
    char *cov_json = pbc_xprintf("%s/coverage.json", cov_dir);
    json_dump_file(cov, cov_json, JSON_INDENT(2));
    free(cov_json);
    /* report.json, when the verb wrote one (certify). */
    char *report = pbc_xprintf("%s/report.json", dir);
    json_t *r = is_file(report) ? json_load_file(report, 0, &jerr) : NULL;
    if (r) {
        json_object_set(r, "coverage", cov);
        json_dump_file(r, report, JSON_INDENT(2));
        json_decref(r);
    }
    free(report);
    add_to_reports(dir, cov);
    printf("coverage: lines %.1f%%, branches %.1f%%, functions %.1f%% of the builder's code (%u worker "
           "profiles): %s/html/index.html\n",
           json_number_value(json_object_get(json_object_get(cov, "lines"), "percent")),
           json_number_value(json_object_get(json_object_get(cov, "branches"), "percent")),
           json_number_value(json_object_get(json_object_get(cov, "functions"), "percent")), profiles, cov_dir);
    json_decref(cov);
    rc = 0;
out:
    pbc_fs_remove_tree(c->raw_dir, err, sizeof(err));
    free(cov_dir), free(list), free(log), free(merged), free(export_path), free(html_dir);
    c->on = 0;
    return rc;
}

void pbc_coverage_discard(pbc_coverage *c)
{
    char err[PATH_MAX + 128];
    if (c->on)
        pbc_fs_remove_tree(c->raw_dir, err, sizeof(err));
    c->on = 0;
}
