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
- every pbcheck a run: step calls is given a verb that 'pbcheck --help'
  lists, and 'pbcheck triage' is given --target;
- the modes code-change, batch, prune and coverage each run somewhere;
- a job that fuzzes for crashes (code-change, batch) triages them with
  pbcheck, uploads the SARIF with a category per sanitizer on always()
  (triage exits 1 on a failing bucket: that must not skip the upload) and
  uploads the triage folder.

The checker first proves it can fail: each of a set of broken copies of the
workflows (an unpinned action, another project's build, a verb pbcheck does
not have, triage without --target, ...) must be rejected.

Usage: workflows_test.py PBCHECK [WORKFLOWS_DIR]
       (WORKFLOWS_DIR defaults to this repository's .github/workflows; a copy
       elsewhere is checked against this repository's .clusterfuzzlite/)

Proof by hand, on a copy:
    cp -r .github/workflows /tmp/wf && sed -i 's/pbcheck triage/pbcheck triag/' /tmp/wf/cflite_pr.yml
    tests/workflows_test.py build/release/pbcheck /tmp/wf   # exit 1, names the step
"""
import copy
import os
import re
import subprocess
import sys

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
    modes_seen = set()
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
            built, job_modes, triaged, sarif_uploads, artifact_uploads = None, set(), [], [], []
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
                elif action == SARIF:
                    sarif_uploads.append((at, step))
                elif action == ARTIFACT:
                    artifact_uploads.append(step)
                if "run" in step:
                    for verb, args in pbcheck_calls(str(step["run"])):
                        if verb not in verbs and verb not in ("--help", "--version"):
                            problems.append(f"{at}: 'pbcheck {verb}': pbcheck has no such verb "
                                            f"({', '.join(sorted(verbs))})")
                        if verb == "triage":
                            triaged.append(step)
                            if "--target" not in args and "--promote" not in args:
                                problems.append(f"{at}: 'pbcheck triage' without --target")
            modes_seen |= job_modes
            if job_modes & {"code-change", "batch"}:
                if not triaged:
                    problems.append(f"{where}: fuzzes for crashes but never runs 'pbcheck triage'")
                if not sarif_uploads:
                    problems.append(f"{where}: no {SARIF} step for the triage SARIF")
                if not artifact_uploads:
                    problems.append(f"{where}: no {ARTIFACT} step for the triage folder")
                lenient = triaged and all(s.get("continue-on-error") is True for s in triaged)
                for at, step in sarif_uploads:
                    if not (is_always(step.get("if")) or lenient):
                        problems.append(f"{at}: triage exits 1 on a failing bucket; upload on "
                                        "always() (or let triage continue-on-error)")
                    category = str((step.get("with") or {}).get("category", ""))
                    if matrix.get("sanitizer") and "matrix.sanitizer" not in category:
                        problems.append(f"{at}: the category must name the sanitizer")
    for mode in sorted(MODES - modes_seen):
        problems.append(f"no workflow runs the {mode} mode")
    return problems


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


def triage_steps(docs):
    for doc in docs.values():
        for job in doc["jobs"].values():
            for step in job["steps"]:
                if "pbcheck triage" in str(step.get("run", "")):
                    yield step


def breakages():
    """(what, function breaking a deep copy of the documents in place)."""
    def first(it):
        return next(iter(it))

    def sub(old, new):
        def f(docs):
            step = first(triage_steps(docs))
            assert old in step["run"], old
            step["run"] = step["run"].replace(old, new)
        return f

    def set_input(action, key, value):
        def f(docs):
            first(steps_using(docs, action)).setdefault("with", {})[key] = value
        return f

    def drop_mode(mode):
        def f(docs):
            for name in [n for n, d in docs.items()
                         if any((s.get("with") or {}).get("mode") == mode for s in steps_using({n: d}, RUN))]:
                del docs[name]
        return f

    def unpin(docs):
        step = first(steps_using(docs, "actions/checkout"))
        step["uses"] = "actions/checkout@main"

    def foreign_action(docs):
        first(steps_using(docs, ARTIFACT))["uses"] = "someone/upload-anything@v1"

    def no_always(docs):
        for step in steps_using(docs, SARIF):
            step["if"] = "steps.sarif.outcome == 'success'"

    def no_on(docs):
        doc = first(docs.values())
        doc.pop("on", None)
        doc.pop(True, None)

    return [
        ("an action pinned to a branch", unpin),
        ("an action not on the list", foreign_action),
        ("another OSS-Fuzz project's build", set_input(BUILD, "oss-fuzz-project-name", "someone-else")),
        ("a source tree from elsewhere", set_input(BUILD, "project-src-path", "../other")),
        ("the wrong language", set_input(BUILD, "language", "c++")),
        ("a sanitizer project.yaml lacks", set_input(BUILD, "sanitizer", "memory")),
        ("a verb pbcheck does not have", sub("pbcheck triage", "pbcheck triag")),
        ("triage without --target", sub('--target "$builder"', "")),
        ("the SARIF upload skipped when triage fails", no_always),
        ("no prune mode", drop_mode("prune")),
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
    for p in problems:
        print(f"FAIL {p}")
    print(f"workflows: {len(docs)} parsed in {os.path.normpath(directory)}, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
