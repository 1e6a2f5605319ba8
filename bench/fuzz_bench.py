#!/usr/bin/env python3
"""The fuzzer effectiveness benchmark of tracecheck (docs/fuzzing.md,
"Fuzzer effectiveness benchmark"). Run through bench/fuzz_bench.sh, which
`make fuzz-bench` calls; see its --help.

  fuzz_bench.py check BINARY BUG INPUT DIR
  fuzz_bench.py check-bugs           the bug table against bench/bugs
  fuzz_bench.py bugs  [options]      libFuzzer against each planted bug
  fuzz_bench.py cov   [options]      coverage over time per harness
  fuzz_bench.py table DIR            the results table again, from DIR
  fuzz_bench.py plot DIR             coverage.png again, from DIR/coverage.csv
"""
import argparse
import concurrent.futures as cf
import csv
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUGS_TSV = os.path.join(HERE, "fuzz_bench_bugs.tsv")
BUGS_DIR = os.path.join(HERE, "bugs")

# The record written by bench/fuzz_bench_canary.c.
REC_MAGIC = b"TCFZBNC1"
REC_HEAD = struct.Struct("=8sII")
REC_BUG = struct.Struct("=QQQQ")
REC_BUGS = 64


def die(msg):
    print("fuzz-bench: " + msg, file=sys.stderr)
    sys.exit(2)


def read_record(path):
    """{bug: (reached, triggered, first_reached_ns, first_triggered_ns)}."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return {}
    if len(data) < REC_HEAD.size + REC_BUGS * REC_BUG.size:
        return {}
    magic, version, nbugs = REC_HEAD.unpack_from(data, 0)
    if magic != REC_MAGIC or version != 1:
        die("%s is not a fuzz-bench record" % path)
    out = {}
    for i in range(1, min(nbugs, REC_BUGS)):
        out[i] = REC_BUG.unpack_from(data, REC_HEAD.size + i * REC_BUG.size)
    return out


def load_bugs():
    bugs = []
    with open(BUGS_TSV) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5:
                die("%s: a line without 5 tab-separated columns: %s" % (BUGS_TSV, line.strip()))
            bugs.append({"id": int(cols[0]), "harnesses": cols[1].split(","), "where": cols[2],
                         "kind": cols[3], "defect": cols[4]})
    return bugs


def hooks_in_parsers():
    """[file:line, ...] of every TC_BUG( in parsers/: there must be none."""
    found = []
    for d, _, files in os.walk(os.path.join(ROOT, "parsers")):
        for name in sorted(files):
            path = os.path.join(d, name)
            with open(path, errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if re.search(r"\bTC_BUG\(", line):
                        found.append("%s:%d" % (os.path.relpath(path, ROOT), n))
    return found


def patches():
    """{bug id: (patch, {file: [line, ...]})}: the TC_BUG(id, ...) lines that
    each bench/bugs/NN-name.patch adds, by file and line once applied."""
    out, errors = {}, []
    for name in sorted(os.listdir(BUGS_DIR)):
        if not name.endswith(".patch"):
            continue
        m = re.match(r"(\d\d)-[a-z0-9-]+\.patch$", name)
        if not m:
            errors.append("%s: not named NN-name.patch" % name)
            continue
        bug, rel, sites, path, n = int(m.group(1)), "bench/bugs/" + name, {}, None, 0
        if bug in out:
            errors.append("%s and %s: two patches for bug %d" % (out[bug][0], rel, bug))
        with open(os.path.join(BUGS_DIR, name)) as f:
            for line in f:
                if line.startswith("+++ "):
                    path = re.sub(r"^b/", "", line[4:].split()[0])
                    sites.setdefault(path, [])
                elif line.startswith("@@ ") and path:
                    n = int(re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", line).group(1))
                elif path and line[:1] in (" ", "+"):
                    for h in re.finditer(r"\bTC_BUG\((\d+),", line):
                        if line[0] == " ":
                            errors.append("%s: TC_BUG in a context line" % rel)
                        elif int(h.group(1)) != bug:
                            errors.append("%s: TC_BUG(%s, ...), not %d" % (rel, h.group(1), bug))
                        else:
                            sites[path].append(n)
                    n += 1
        if not any(sites.values()):
            errors.append("%s adds no TC_BUG(%d, ...)" % (rel, bug))
        out[bug] = (rel, sites)
    return out, errors


def check_table(bugs):
    """Every bug of the table is one patch of bench/bugs, and nothing else
    is; parsers/ itself holds no TC_BUG."""
    found, errors = patches()
    ids = [b["id"] for b in bugs]
    if len(set(ids)) != len(ids):
        errors.append("a bug number appears twice in " + BUGS_TSV)
    for b in bugs:
        if b["id"] not in found:
            errors.append("bug %d: no bench/bugs/%02d-name.patch" % (b["id"], b["id"]))
        elif b["where"].split()[0] not in found[b["id"]][1]:
            errors.append("bug %d: %s does not patch %s" % (b["id"], found[b["id"]][0],
                                                           b["where"].split()[0]))
    for i in sorted(set(found) - set(ids)):
        errors.append("%s: bug %d is not in %s" % (found[i][0], i, BUGS_TSV))
    for h in hooks_in_parsers():
        errors.append("%s: TC_BUG in parsers/ (bugs are patches in bench/bugs)" % h)
    if errors:
        die("the bug table and bench/bugs disagree:\n  " + "\n  ".join(errors))
    return found


def parse_harness_spec(spec):
    """FUZZ_BENCH_HARNESSES: 'target:seed+seed:dict ...' (from bench/bench.mk)."""
    out = {}
    for item in spec.split():
        parts = item.split(":")
        if len(parts) != 3:
            die("bad harness spec %r" % item)
        t, seeds, dct = parts
        out[t] = {"seeds": [s for s in seeds.split("+") if s], "dict": dct}
    return out


def replay(binary, inp, bugs, record, timeout):
    """Runs the regression driver on one input; returns (status, tail)."""
    env = dict(os.environ, TC_FUZZBENCH_BUGS=bugs)
    if record:
        env["TC_FUZZBENCH_RECORD"] = record
    else:
        env.pop("TC_FUZZBENCH_RECORD", None)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    try:
        p = subprocess.run([binary, inp], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    return p.returncode, p.stdout.decode("utf-8", "replace")[-2000:]


# ---- check ----

def cmd_check(a):
    """make check's proof of the mechanism, on one harness, bug and input."""
    bug = int(a.bug)
    os.makedirs(a.dir, exist_ok=True)
    fails = []
    results = {}
    for mode, enabled in (("enabled", str(bug)), ("disabled", "")):
        rec = os.path.join(a.dir, "record-" + mode)
        if os.path.exists(rec):
            os.unlink(rec)
        status, out = replay(a.binary, a.input, enabled, rec, 60)
        r = read_record(rec).get(bug, (0, 0, 0, 0))
        results[mode] = (status, r)
        with open(os.path.join(a.dir, "log-" + mode), "w") as f:
            f.write(out)
        if not r[0] or not r[1]:
            fails.append("with bug %d %s, the canary recorded reached %d and triggered %d times;"
                         " both must be non-zero" % (bug, mode, r[0], r[1]))
        if mode == "enabled" and status == 0:
            fails.append("with bug %d enabled, %s passed on %s: the harness did not catch it"
                         % (bug, os.path.basename(a.binary), a.input))
        if mode == "disabled" and status != 0:
            fails.append("with bug %d disabled, %s failed on %s (status %s); log %s"
                         % (bug, os.path.basename(a.binary), a.input, status,
                            os.path.join(a.dir, "log-" + mode)))
    if fails:
        for m in fails:
            print("fuzz-bench check: " + m, file=sys.stderr)
        sys.exit(1)
    e, d = results["enabled"], results["disabled"]
    print("fuzz-bench: bug %d in %s: reached and triggered (canary), the harness fails with the "
          "bug (status %s) and passes without it" % (bug, os.path.basename(a.binary), e[0]))


# ---- bugs ----

def artifact_list(d):
    try:
        return sorted(os.path.join(d, n) for n in os.listdir(d))
    except FileNotFoundError:
        return []


def run_one(job):
    """One libFuzzer run of one harness against one enabled bug."""
    bug, target, a, spec = job["bug"], job["target"], job["args"], job["spec"]
    d = os.path.join(a.out, "runs", "bug%02d-%s" % (bug, target))
    shutil.rmtree(d, ignore_errors=True)
    corpus, arts = os.path.join(d, "corpus"), os.path.join(d, "artifacts")
    os.makedirs(corpus)
    os.makedirs(arts)
    rec = os.path.join(d, "record")
    fz = os.path.join(a.fuzz_out, "bench-libfuzzer", target)
    rg = os.path.join(a.fuzz_out, "bench-regress", target)
    args = [fz, "-max_total_time=%d" % a.seconds, "-max_len=%s" % a.max_len,
            "-timeout=%d" % a.unit_timeout, "-rss_limit_mb=2048", "-artifact_prefix=" + arts + "/",
            "-print_final_stats=1", "-seed=%d" % (a.seed + bug)]
    if spec["dict"] != "-":
        args.append("-dict=" + os.path.join(ROOT, spec["dict"]))
    args.append(corpus)
    args += [os.path.join(ROOT, s) for s in spec["seeds"]]
    env = dict(os.environ, TC_FUZZBENCH_BUGS=str(bug), TC_FUZZBENCH_RECORD=rec)
    t0 = time.time_ns()
    with open(os.path.join(d, "libfuzzer.log"), "w") as log:
        # A hard stop well after -max_total_time: a stuck run ends too.
        try:
            p = subprocess.run(args, env=env, stdout=log, stderr=subprocess.STDOUT,
                               timeout=a.seconds + 120, cwd=d)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = "killed"
    t1 = time.time_ns()
    r = read_record(rec).get(bug, (0, 0, 0, 0))
    res = {"bug": bug, "target": target, "seconds": a.seconds, "exit": rc,
           "reached": r[0], "triggered": r[1],
           "reached_s": (r[2] - t0) / 1e9 if r[2] else None,
           "triggered_s": (r[3] - t0) / 1e9 if r[3] else None,
           "detected_s": None, "verdict": "not detected", "artifact": None,
           "wall_s": (t1 - t0) / 1e9}
    arts_found = artifact_list(arts)
    if arts_found:
        art = arts_found[0]
        res["artifact"] = os.path.relpath(art, a.out)
        res["detected_s"] = max(0.0, (os.stat(art).st_mtime_ns - t0) / 1e9)
        # Whose failure is it? Replay it with the bug and without: detected
        # means it fails only with the bug.
        st_bug, _ = replay(rg, art, str(bug), os.path.join(d, "record-replay-bug"), 120)
        rrec = os.path.join(d, "record-replay-clean")
        st_clean, tail = replay(rg, art, "", rrec, 120)
        trig = read_record(rrec).get(bug, (0, 0, 0, 0))[1]
        res["replay_with_bug"] = st_bug
        res["replay_without_bug"] = st_clean
        res["artifact_triggers"] = trig > 0
        kind = os.path.basename(art).split("-")[0]
        if st_clean != 0:
            res["verdict"] = "other failure"
            res["other_tail"] = tail[-600:]
        elif st_bug != 0:
            res["verdict"] = "detected"
        elif kind in ("timeout", "oom", "slow"):
            # The regression driver has no time or memory limit: a slow or
            # large unit only with the bug counts, a crash must replay.
            res["verdict"] = "detected" if trig else "other failure"
        else:
            res["verdict"] = "not reproduced"
        res["artifact_kind"] = kind
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(res, f, indent=1)
    return res


def fmt_s(v):
    return "-" if v is None else ("%.1f" % v if v < 10 else "%.0f" % v)


def write_table(out, bugs, results):
    """results.md (Markdown), results.csv; the summary on stdout."""
    by_bug = {}
    for r in results:
        by_bug.setdefault(r["bug"], []).append(r)
    rows, csv_rows = [], []
    n = reached = triggered = detected = 0
    for b in bugs:
        rs = by_bug.get(b["id"])
        if not rs:
            continue
        n += 1
        rs.sort(key=lambda r: b["harnesses"].index(r["target"]) if r["target"] in b["harnesses"] else 99)

        def first(key):
            vals = [(r[key], r["target"]) for r in rs if r[key] is not None]
            return min(vals) if vals else (None, None)
        rch, trg = first("reached_s"), first("triggered_s")
        det = [(r["detected_s"], r["target"]) for r in rs if r["verdict"] == "detected"]
        dt = min(det) if det else (None, None)
        other = [r["target"] for r in rs if r["verdict"] in ("other failure", "not reproduced")]
        reached += rch[0] is not None
        triggered += trg[0] is not None
        detected += dt[0] is not None
        note = ""
        if other:
            note = "failure not caused by the bug: " + ", ".join(other)
        rows.append("| %02d | %s | %s | %s | %s | %s | %s |" % (
            b["id"], b["kind"], ", ".join(r["target"] for r in rs), fmt_s(rch[0]),
            fmt_s(trg[0]), fmt_s(dt[0]), (dt[1] or "") + ((" (" + note + ")") if note else "")))
        for r in rs:
            csv_rows.append([b["id"], r["target"], r["seconds"], r["reached"], r["triggered"],
                             r["reached_s"], r["triggered_s"], r["detected_s"], r["verdict"],
                             r.get("artifact") or ""])
    head = ("| bug | kind | harnesses | reached (s) | triggered (s) | detected (s) | found by |\n"
            "|---|---|---|---|---|---|---|")
    summary = ("%d bugs: %d reached, %d triggered, %d detected" % (n, reached, triggered, detected))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(head + "\n" + "\n".join(rows) + "\n\n" + summary + "\n")
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bug", "harness", "budget_s", "reached_count", "triggered_count",
                    "reached_s", "triggered_s", "detected_s", "verdict", "artifact"])
        w.writerows(csv_rows)
    print(head)
    print("\n".join(rows))
    print()
    print("fuzz-bench: " + summary)
    print("fuzz-bench: tables in %s/results.md and results.csv" % out)


def cmd_bugs(a):
    bugs = load_bugs()
    check_table(bugs)
    specs = parse_harness_spec(a.harnesses)
    sel = set()
    if a.bugs not in ("", "all"):
        for x in re.split(r"[ ,]+", a.bugs.strip()):
            if not x.isdigit() or int(x) not in {b["id"] for b in bugs}:
                die("FUZZ_BENCH_BUGS: %r is not a bug of %s" % (x, BUGS_TSV))
            sel.add(int(x))
    chosen = [b for b in bugs if not sel or b["id"] in sel]
    jobs = []
    for b in chosen:
        targets = b["harnesses"][:a.per_bug] if a.per_bug > 0 else b["harnesses"]
        for t in targets:
            if t not in specs:
                die("bug %d: no harness %s" % (b["id"], t))
            for kind in ("bench-libfuzzer", "bench-regress"):
                if not os.access(os.path.join(a.fuzz_out, kind, t), os.X_OK):
                    die("%s/%s/%s is not built (make fuzz-bench-build)" % (a.fuzz_out, kind, t))
            jobs.append({"bug": b["id"], "target": t, "args": a, "spec": specs[t]})
    os.makedirs(a.out, exist_ok=True)
    print("fuzz-bench: %d runs (%d bugs) of %d s, %d at a time: about %d min"
          % (len(jobs), len(chosen), a.seconds, a.jobs,
             (len(jobs) + a.jobs - 1) // a.jobs * (a.seconds + 5) // 60 + 1), flush=True)
    results = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run_one, j): j for j in jobs}
        for fu in cf.as_completed(futs):
            r = fu.result()
            results.append(r)
            print("fuzz-bench: bug %02d %-17s reached %s triggered %s %s%s" % (
                r["bug"], r["target"], fmt_s(r["reached_s"]), fmt_s(r["triggered_s"]),
                r["verdict"], (" at %s s" % fmt_s(r["detected_s"])) if r["detected_s"] is not None
                else ""), flush=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(sorted(results, key=lambda r: (r["bug"], r["target"])), f, indent=1)
    write_table(a.out, bugs, results)


def cmd_check_bugs(a):
    found = check_table(load_bugs())
    print("fuzz-bench: %d bugs in %s, one patch each in bench/bugs (%d sites)"
          % (len(found), os.path.relpath(BUGS_TSV, ROOT),
             sum(len(v) for _, s in found.values() for v in s.values())))


def cmd_table(a):
    with open(os.path.join(a.dir, "results.json")) as f:
        results = json.load(f)
    write_table(a.dir, load_bugs(), results)


# ---- coverage over time ----

def cov_summary(a, target, inputs, d, tag):
    """Replays inputs with the coverage build; (lines covered, lines, regions covered, regions)."""
    cov = os.path.join(a.fuzz_out, "cov", target)
    prof = os.path.join(d, "prof-" + tag)
    shutil.rmtree(prof, ignore_errors=True)
    os.makedirs(prof)
    env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(prof, "%p.profraw"))
    env.pop("TC_FUZZBENCH_BUGS", None)
    p = subprocess.run([cov] + inputs, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=1800)
    if p.returncode != 0:
        print("fuzz-bench: %s: a corpus input fails the harness (%s); coverage at %s is of the "
              "inputs before it" % (target, p.stderr.decode("utf-8", "replace").strip()
                                    .splitlines()[-1:], tag), file=sys.stderr)
    raws = [os.path.join(prof, n) for n in os.listdir(prof)]
    if not raws:
        return None
    data = os.path.join(prof, "merged.profdata")
    subprocess.run([a.llvm_profdata, "merge", "-sparse", "-o", data] + raws, check=True)
    out = subprocess.run([a.llvm_cov, "export", "-summary-only", "-instr-profile=" + data,
                          "-ignore-filename-regex=(^|/)(fuzz|bench|usr)/", cov],
                         check=True, stdout=subprocess.PIPE).stdout
    t = json.loads(out)["data"][0]["totals"]
    shutil.rmtree(prof, ignore_errors=True)
    return (t["lines"]["covered"], t["lines"]["count"], t["regions"]["covered"],
            t["regions"]["count"])


def cov_one(job):
    target, a, spec = job["target"], job["args"], job["spec"]
    d = os.path.join(a.out, "cov", target)
    shutil.rmtree(d, ignore_errors=True)
    corpus, snaps = os.path.join(d, "corpus"), os.path.join(d, "snapshots")
    os.makedirs(corpus)
    os.makedirs(snaps)
    fz = os.path.join(a.fuzz_out, "libfuzzer", target)
    args = [fz, "-max_total_time=%d" % a.cov_seconds, "-max_len=%s" % a.max_len,
            "-timeout=%d" % a.unit_timeout, "-rss_limit_mb=2048",
            "-artifact_prefix=" + os.path.join(d, "artifact-"), "-seed=%d" % a.seed]
    if spec["dict"] != "-":
        args.append("-dict=" + os.path.join(ROOT, spec["dict"]))
    seeds = [os.path.join(ROOT, s) for s in spec["seeds"]]
    args += [corpus] + seeds
    env = dict(os.environ)
    env.pop("TC_FUZZBENCH_BUGS", None)
    log = open(os.path.join(d, "libfuzzer.log"), "w")
    t0 = time.time()
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d)
    # libFuzzer only adds files to its corpus directory (named by content),
    # so a snapshot is a set of hard links taken at a point in time.
    times = []
    k = 0
    while True:
        due = t0 + k * a.cov_interval
        while p.poll() is None and time.time() < due:
            time.sleep(0.2)
        if p.poll() is not None and k * a.cov_interval < a.cov_seconds:
            # Ended early (a failure): the last snapshot is the final corpus.
            pass
        snap = os.path.join(snaps, "%05d" % (k * a.cov_interval))
        os.makedirs(snap)
        for n in os.listdir(corpus):
            try:
                os.link(os.path.join(corpus, n), os.path.join(snap, n))
            except FileNotFoundError:
                pass
        times.append(k * a.cov_interval)
        if p.poll() is not None or k * a.cov_interval >= a.cov_seconds:
            break
        k += 1
    try:
        p.wait(timeout=a.cov_seconds + 120)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGKILL)
        p.wait()
    log.close()
    rows = []
    for t in times:
        snap = os.path.join(snaps, "%05d" % t)
        s = cov_summary(a, target, seeds + [snap], d, "%05d" % t)
        if s:
            rows.append([target, t, len(os.listdir(snap))] + list(s))
    shutil.rmtree(snaps, ignore_errors=True)
    return rows


def plot(out, rows):
    """coverage.png: lines covered over time, and the gain over the seeds."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    targets = sorted({r[0] for r in rows})
    colours = plt.get_cmap("tab20").colors
    fig, axes = plt.subplots(1, 2, figsize=(14, 6))
    for i, t in enumerate(targets):
        rs = sorted((r for r in rows if r[0] == t), key=lambda r: r[1])
        xs = [r[1] for r in rs]
        style = {"color": colours[i % len(colours)], "marker": "o^sD"[i % 4], "markersize": 4,
                 "linestyle": "-" if i % 2 == 0 else "--", "label": t}
        axes[0].plot(xs, [r[3] for r in rs], **style)
        base = rs[0][3] or 1
        axes[1].plot(xs, [100.0 * (r[3] - base) / base for r in rs], **style)
    axes[0].set_title("lines of parsers/ and generators/ covered")
    axes[1].set_title("lines covered beyond the seed corpus's (% of the seeds')")
    for ax in axes:
        ax.set_xlabel("seconds of libFuzzer (one process, from the seed corpus)")
        ax.grid(True, alpha=0.3)
    axes[1].legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle("tracecheck harnesses: coverage over time (llvm-cov, corpus snapshots)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "coverage.png"), dpi=90)


def cmd_plot(a):
    rows = []
    with open(os.path.join(a.dir, "coverage.csv")) as f:
        for r in list(csv.reader(f))[1:]:
            rows.append([r[0]] + [int(x) for x in r[1:]])
    plot(a.dir, rows)
    print("fuzz-bench: %s/coverage.png" % a.dir)


def cmd_cov(a):
    specs = parse_harness_spec(a.harnesses)
    targets = a.targets.split() if a.targets else sorted(specs)
    for t in targets:
        if t not in specs:
            die("FUZZ_BENCH_COV_TARGETS: no harness %s" % t)
        for kind in ("libfuzzer", "cov"):
            if not os.access(os.path.join(a.fuzz_out, kind, t), os.X_OK):
                die("%s/%s/%s is not built (make fuzz-bench-build)" % (a.fuzz_out, kind, t))
    for tool in (a.llvm_profdata, a.llvm_cov):
        if not shutil.which(tool):
            die("%s not found (Debian package llvm; make deps)" % tool)
    os.makedirs(a.out, exist_ok=True)
    print("fuzz-bench: coverage of %d harnesses, %d s each, snapshots every %d s, %d at a time"
          % (len(targets), a.cov_seconds, a.cov_interval, a.jobs), flush=True)
    rows = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(cov_one, {"target": t, "args": a, "spec": specs[t]}) for t in targets]
        for fu in cf.as_completed(futs):
            rs = fu.result()
            rows += rs
            if rs:
                last = rs[-1]
                print("fuzz-bench: coverage %-17s %d inputs: lines %d/%d, regions %d/%d at %d s"
                      % (last[0], last[2], last[3], last[4], last[5], last[6], last[1]), flush=True)
    rows.sort(key=lambda r: (r[0], r[1]))
    with open(os.path.join(a.out, "coverage.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["harness", "seconds", "corpus_inputs", "lines_covered", "lines",
                    "regions_covered", "regions"])
        w.writerows(rows)
    plot(a.out, rows)
    print("fuzz-bench: %s/coverage.png and coverage.csv" % a.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="prove the mechanism on one input")
    c.add_argument("binary")
    c.add_argument("bug")
    c.add_argument("input")
    c.add_argument("dir")
    for name in ("bugs", "cov"):
        p = sub.add_parser(name)
        p.add_argument("--fuzz-out", required=True, help="$(BUILD)/fuzz")
        p.add_argument("--out", required=True)
        p.add_argument("--harnesses", required=True, help="target:seed+seed:dict ...")
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--max-len", default=os.environ.get("FUZZ_MAX_LEN", "8192"))
        p.add_argument("--unit-timeout", type=int, default=10)
        p.add_argument("--seed", type=int, default=1)
        if name == "bugs":
            p.add_argument("--seconds", type=int, default=60)
            p.add_argument("--bugs", default="all")
            p.add_argument("--per-bug", type=int, default=0,
                           help="harnesses per bug, first ones of the table (0: all)")
        else:
            p.add_argument("--cov-seconds", type=int, default=60)
            p.add_argument("--cov-interval", type=int, default=10)
            p.add_argument("--targets", default="")
            p.add_argument("--llvm-profdata", default="llvm-profdata")
            p.add_argument("--llvm-cov", default="llvm-cov")
    sub.add_parser("check-bugs", help="the table against bench/bugs")
    t = sub.add_parser("table")
    t.add_argument("dir")
    t = sub.add_parser("plot", help="coverage.png again from DIR/coverage.csv")
    t.add_argument("dir")
    a = ap.parse_args()
    if getattr(a, "jobs", 1) < 1:
        die("--jobs is at least 1")
    # Runs start libFuzzer in their own directory: paths given relative to
    # the tree (make's default BUILD=build) must not depend on it.
    for name in ("fuzz_out", "out", "binary", "input", "dir"):
        if getattr(a, name, None):
            setattr(a, name, os.path.abspath(getattr(a, name)))
    {"check": cmd_check, "bugs": cmd_bugs, "cov": cmd_cov, "table": cmd_table,
     "plot": cmd_plot, "check-bugs": cmd_check_bugs}[a.cmd](a)


if __name__ == "__main__":
    main()
