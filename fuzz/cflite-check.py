#!/usr/bin/env python3
"""Checks the ClusterFuzzLite files offline (make check, check-fuzz-ossfuzz).

    fuzz/cflite-check.py [ROOT]

ROOT is the repository (default: the directory above this script). Checked:
.clusterfuzzlite/project.yaml parses and says `language: c`; the Dockerfile
starts from OSS-Fuzz's base-builder, installs the build dependencies, and
every source it COPYs exists in the build context (the repository);
.clusterfuzzlite/build.sh is executable and runs fuzz/build.sh; each
.github/workflows/cflite_*.yml parses, and its jobs build with
google/clusterfuzzlite/actions/build_fuzzers@v1 and run with
run_fuzzers@v1 in the mode that file is for (code-change on pull requests,
batch, prune and coverage on a schedule; coverage with the coverage
sanitizer in both steps). What needs GitHub or Docker (the actions running,
the image building) is not checked here. Exit status 0 when all hold, 1
otherwise, with one line per problem.
"""

import os
import re
import shlex
import sys

try:
    import yaml
except ImportError:
    sys.exit("cflite-check: PyYAML is missing (Debian: python3-yaml; run 'make deps')")

BUILD_ACTION = "google/clusterfuzzlite/actions/build_fuzzers@v1"
RUN_ACTION = "google/clusterfuzzlite/actions/run_fuzzers@v1"
# Workflow file -> the modes its jobs run, and the event that starts them.
WORKFLOWS = {
    "cflite_pr.yml": ({"code-change"}, "pull_request"),
    "cflite_batch.yml": ({"batch"}, "schedule"),
    "cflite_cron.yml": ({"prune", "coverage"}, "schedule"),
}
PACKAGES = {"make", "zip", "zlib1g-dev", "libbz2-dev", "libzstd-dev"}

problems = []


def problem(path, msg):
    problems.append(f"{path}: {msg}")


def load_yaml(root, rel):
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        problem(rel, f"does not parse: {e}")
        return None


def check_project(root):
    rel = ".clusterfuzzlite/project.yaml"
    doc = load_yaml(root, rel)
    if doc is not None and (not isinstance(doc, dict) or doc.get("language") != "c"):
        problem(rel, f"language is {doc.get('language') if isinstance(doc, dict) else doc!r}, not c")


def dockerfile_instructions(text):
    """Instructions with continuation lines joined, comments dropped."""
    out, cur = [], ""
    for line in text.splitlines():
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        cur += line
        out.append(cur.strip())
        cur = ""
    if cur:
        out.append(cur.strip())
    return out


def check_dockerfile(root):
    rel = ".clusterfuzzlite/Dockerfile"
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            instr = dockerfile_instructions(f.read())
    except OSError as e:
        problem(rel, str(e))
        return
    if not instr or not re.fullmatch(r"FROM\s+gcr\.io/oss-fuzz-base/base-builder(:\S+)?", instr[0]):
        problem(rel, "does not start FROM gcr.io/oss-fuzz-base/base-builder")
    installed, copies, workdir = set(), [], None
    for i in instr:
        word, _, rest = i.partition(" ")
        if word == "RUN" and "apt-get" in rest:
            installed |= {w for w in shlex.split(rest.replace("&&", " ")) if not w.startswith("-")}
        elif word == "COPY":
            args = [a for a in shlex.split(rest) if not a.startswith("--")]
            if len(args) < 2:
                problem(rel, f"COPY without a source and a destination: {i}")
                continue
            copies.append((args[:-1], args[-1]))
            for src in args[:-1]:
                if not os.path.exists(os.path.join(root, src)):
                    problem(rel, f"COPY source {src} is not in the build context ({root})")
        elif word == "WORKDIR":
            workdir = rest.strip()
    missing = PACKAGES - installed
    if missing:
        problem(rel, f"apt-get does not install {' '.join(sorted(missing))}")
    if (["."], "$SRC/tracecheck") not in copies:
        problem(rel, "does not COPY . $SRC/tracecheck")
    if workdir != "$SRC/tracecheck":
        problem(rel, f"WORKDIR is {workdir}, not $SRC/tracecheck")
    if not any(s == [".clusterfuzzlite/build.sh"] and d in ("$SRC/", "$SRC/build.sh")
               for s, d in copies):
        problem(rel, "does not COPY .clusterfuzzlite/build.sh to $SRC/")

    rel = ".clusterfuzzlite/build.sh"
    path = os.path.join(root, rel)
    if not os.access(path, os.X_OK):
        problem(rel, "missing or not executable")
    else:
        with open(path, encoding="utf-8") as f:
            if "fuzz/build.sh" not in f.read():
                problem(rel, "does not run fuzz/build.sh")


def check_workflow(root, name, modes, event):
    rel = f".github/workflows/{name}"
    doc = load_yaml(root, rel)
    if not isinstance(doc, dict):
        if doc is not None:
            problem(rel, "is not a mapping")
        return
    # YAML 1.1 reads the key `on` as true.
    on = doc.get("on", doc.get(True))
    if not isinstance(on, dict) or event not in on:
        problem(rel, f"is not run on {event}")
    elif event == "schedule":
        crons = [c.get("cron", "") for c in on["schedule"] or [] if isinstance(c, dict)]
        if not crons or any(len(str(c).split()) != 5 for c in crons):
            problem(rel, f"schedule has no valid cron line: {crons}")
    seen = set()
    for job_name, job in (doc.get("jobs") or {}).items():
        steps = job.get("steps") or [] if isinstance(job, dict) else []
        uses = [s.get("uses", "") for s in steps if isinstance(s, dict)]
        if BUILD_ACTION not in uses or RUN_ACTION not in uses:
            problem(rel, f"job {job_name} does not use both {BUILD_ACTION} and {RUN_ACTION}")
            continue
        build = steps[uses.index(BUILD_ACTION)].get("with") or {}
        run = steps[uses.index(RUN_ACTION)].get("with") or {}
        if uses.index(BUILD_ACTION) > uses.index(RUN_ACTION):
            problem(rel, f"job {job_name} runs the fuzzers before building them")
        if build.get("language") != "c":
            problem(rel, f"job {job_name}: build_fuzzers language is {build.get('language')}, not c")
        mode = run.get("mode")
        seen.add(mode)
        if mode not in modes:
            problem(rel, f"job {job_name}: mode {mode!r}, expected one of {sorted(modes)}")
        secs = run.get("fuzz-seconds")
        if not isinstance(secs, int) or secs <= 0:
            problem(rel, f"job {job_name}: fuzz-seconds {secs!r} is not a positive number")
        bsan, rsan = build.get("sanitizer", "address"), run.get("sanitizer", "address")
        if bsan != rsan:
            problem(rel, f"job {job_name}: built with sanitizer {bsan}, run with {rsan}")
        if (mode == "coverage") != (rsan == "coverage"):
            problem(rel, f"job {job_name}: mode {mode} with sanitizer {rsan}"
                         " (coverage goes with the coverage sanitizer, and only it)")
        if "github-token" not in run:
            problem(rel, f"job {job_name}: run_fuzzers has no github-token")
    if seen != modes:
        problem(rel, f"runs modes {sorted(m for m in seen if m)}, expected {sorted(modes)}")
    return seen


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    check_project(root)
    check_dockerfile(root)
    wfdir = os.path.join(root, ".github/workflows")
    present = sorted(f for f in os.listdir(wfdir) if f.startswith("cflite_")) \
        if os.path.isdir(wfdir) else []
    for name in present:
        if name not in WORKFLOWS:
            problem(f".github/workflows/{name}", "is not a workflow this check knows")
    modes = set()
    for name, (want, event) in WORKFLOWS.items():
        if name not in present:
            problem(f".github/workflows/{name}", "is missing")
        else:
            modes |= check_workflow(root, name, want, event) or set()
    for p in problems:
        print(f"cflite-check: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"cflite-check: .clusterfuzzlite/ and {len(present)} workflows hold;"
          f" modes {', '.join(sorted(modes))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
