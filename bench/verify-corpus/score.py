#!/usr/bin/env python3
"""Scores `cake-opt --cake-verify` on the verify corpus (bench/verify-corpus/{buggy,correct}/).

Each kernel file starts with a header `// CORPUS: verdict=<buggy|correct> class=<class>`. The
scorer runs

    cake-opt FILE --cake-load-rules=<shipped rules> --cake-verify --cake-diagnostics=json -o /dev/null

on every file and counts, per class: buggy kernels caught (at least one error finding) or missed,
and correct kernels with false alarms (any error finding), with the rule ids raised. A buggy
kernel whose only findings also appear on some correct kernel (same rule id, same message: e.g. a
rule that cannot evaluate computed mbarrier indices) is counted as `noise`, not as caught. Warnings
(`tma.coord-stride`) are listed but neither catch a bug nor count as a false alarm. A file that
does not parse or fails an op verifier (a diagnostic with rule null) is reported as `invalid`.

    python3 bench/verify-corpus/score.py                      # the table
    python3 bench/verify-corpus/score.py --only parity -v      # one class, every file
    python3 bench/verify-corpus/score.py --json /tmp/score.json
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HEADER = re.compile(r"^//\s*CORPUS:\s*verdict=(\w+)\s+class=([\w-]+)")


def shipped_rules(repo):
    """The rules the harness loads by default: rules/*.mlir and rules/learned/*.{pdl,mlir}."""
    files = sorted(glob.glob(os.path.join(repo, "rules", "*.mlir")))
    files += sorted(glob.glob(os.path.join(repo, "rules", "learned", "*.pdl")))
    files += sorted(glob.glob(os.path.join(repo, "rules", "learned", "*.mlir")))
    return files


def read_header(path):
    meta = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = HEADER.match(line)
            if m:
                meta["verdict"], meta["class"] = m.group(1), m.group(2)
            for key in ("GPU", "WHY", "SIZES"):
                if line.startswith(f"// {key}:"):
                    meta[key.lower()] = line.split(":", 1)[1].strip()
    return meta


def run_one(cake_opt, rules, path, timeout):
    cmd = [cake_opt, path]
    if rules:
        cmd.append("--cake-load-rules=" + ",".join(rules))
    cmd += ["--cake-verify", "--cake-diagnostics=json", "-o", os.devnull]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "findings": [], "warnings": [], "other": []}
    findings, warnings, other = [], [], []
    for line in proc.stderr.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            other.append(line)
            continue
        if rec.get("rule") is None:
            other.append(rec.get("message", line))
        elif rec.get("severity") == "warning":
            warnings.append({"rule": rec["rule"], "line": rec.get("line"), "message": rec.get("message")})
        else:
            findings.append({"rule": rec["rule"], "line": rec.get("line"), "message": rec.get("message")})
    status = "ok"
    if other and not findings:
        status = "invalid"
    if proc.returncode < 0:
        status = "crash"
    return {"status": status, "returncode": proc.returncode, "findings": findings,
            "warnings": warnings, "other": other}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cake-opt", default=os.path.join(REPO, "build", "bin", "cake-opt"))
    ap.add_argument("--only", action="append", default=[], metavar="CLASS",
                    help="score only this class (repeatable)")
    ap.add_argument("--json", metavar="OUT", help="write a JSON summary (per file and per class)")
    ap.add_argument("--no-rules", action="store_true", help="do not load rules/ (built-in passes only)")
    ap.add_argument("--rules", action="append", default=None, metavar="FILE",
                    help="rule files to load instead of the shipped rules/ (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per file")
    ap.add_argument("--min-caught", type=int, default=None,
                    help="fail (exit 1) when fewer buggy kernels are caught (a regression gate)")
    ap.add_argument("--max-false-alarms", type=int, default=None,
                    help="fail (exit 1) when more correct kernels are flagged")
    args = ap.parse_args()

    if not os.path.exists(args.cake_opt):
        sys.exit(f"score.py: no cake-opt at {args.cake_opt} (build it, or pass --cake-opt)")
    rules = [] if args.no_rules else (args.rules if args.rules is not None else shipped_rules(REPO))

    files = sorted(glob.glob(os.path.join(HERE, "buggy", "*", "*.mlir")) +
                   glob.glob(os.path.join(HERE, "correct", "*", "*.mlir")))
    entries = []
    for path in files:
        meta = read_header(path)
        if "verdict" not in meta:
            print(f"score.py: {path}: no CORPUS header, skipped", file=sys.stderr)
            continue
        if args.only and meta["class"] not in args.only and meta["verdict"] != "correct":
            continue
        entries.append((path, meta))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda e: run_one(args.cake_opt, rules, e[0], args.timeout), entries))

    # Findings that also appear on correct kernels (same rule id, same message) are noise: a buggy
    # kernel flagged only by such findings is counted as `noise`, not as caught.
    noise = set()
    for (path, meta), res in zip(entries, results):
        if meta["verdict"] == "correct":
            for f in res["findings"]:
                noise.add((f["rule"], f["message"]))

    classes = {}
    per_file = []
    for (path, meta), res in zip(entries, results):
        if args.only and meta["class"] not in args.only:
            continue
        cls = classes.setdefault(meta["class"], {
            "buggy": 0, "caught": 0, "noise": 0, "missed": 0, "correct": 0, "false_alarms": 0,
            "invalid": 0, "caught_rules": {}, "noise_rules": {}, "false_alarm_rules": {},
            "missed_files": [], "noise_files": [], "false_alarm_files": []})
        rel = os.path.relpath(path, HERE)
        rule_ids = sorted({f["rule"] for f in res["findings"]})
        verdict = meta["verdict"]
        if res["status"] in ("invalid", "crash", "timeout"):
            outcome = res["status"]
            cls["invalid"] += 1
        elif verdict == "buggy":
            cls["buggy"] += 1
            real = sorted({f["rule"] for f in res["findings"] if (f["rule"], f["message"]) not in noise})
            if real:
                outcome = "caught"
                cls["caught"] += 1
                for r in real:
                    cls["caught_rules"][r] = cls["caught_rules"].get(r, 0) + 1
            elif res["findings"]:
                outcome = "noise"
                cls["noise"] += 1
                cls["noise_files"].append(rel)
                for r in rule_ids:
                    cls["noise_rules"][r] = cls["noise_rules"].get(r, 0) + 1
            else:
                outcome = "missed"
                cls["missed"] += 1
                cls["missed_files"].append(rel)
        else:
            cls["correct"] += 1
            if res["findings"]:
                outcome = "false-alarm"
                cls["false_alarms"] += 1
                cls["false_alarm_files"].append(rel)
                for r in rule_ids:
                    cls["false_alarm_rules"][r] = cls["false_alarm_rules"].get(r, 0) + 1
            else:
                outcome = "clean"
        per_file.append({"file": rel, "class": meta["class"], "verdict": verdict, "outcome": outcome,
                         "rules": rule_ids, "warnings": sorted({w["rule"] for w in res["warnings"]}),
                         "findings": res["findings"], "other": res["other"][:3],
                         "gpu": meta.get("gpu"), "sizes": meta.get("sizes")})
        if args.verbose:
            extra = ",".join(rule_ids)
            if res["warnings"]:
                extra += " (warn: " + ",".join(sorted({w["rule"] for w in res["warnings"]})) + ")"
            if res["other"]:
                extra += " | " + res["other"][0][:100]
            print(f"{outcome:12s} {rel:70s} {extra}")

    tot = {k: sum(c[k] for c in classes.values())
           for k in ("buggy", "caught", "noise", "missed", "correct", "false_alarms", "invalid")}
    if args.verbose:
        print()
    print(f"{'class':16s} {'buggy':>5s} {'caught':>6s} {'noise':>5s} {'missed':>6s} {'correct':>7s} {'FA':>3s}  rules")
    for name in sorted(classes):
        c = classes[name]
        rules_txt = ", ".join(f"{r} {n}" for r, n in sorted(c["caught_rules"].items()))
        fa_txt = ", ".join(f"{r} {n}" for r, n in sorted(c["false_alarm_rules"].items()))
        line = (f"{name:16s} {c['buggy']:5d} {c['caught']:6d} {c['noise']:5d} {c['missed']:6d} "
                f"{c['correct']:7d} {c['false_alarms']:3d}  {rules_txt}")
        if fa_txt:
            line += f"  | false alarms: {fa_txt}"
        if c["invalid"]:
            line += f"  | INVALID {c['invalid']}"
        print(line)
    rate = f"{100.0 * tot['caught'] / tot['buggy']:.0f}%" if tot["buggy"] else "-"
    print(f"{'total':16s} {tot['buggy']:5d} {tot['caught']:6d} {tot['noise']:5d} {tot['missed']:6d} "
          f"{tot['correct']:7d} {tot['false_alarms']:3d}  (caught {rate}; invalid {tot['invalid']})")
    print("noise = flagged only by findings that also appear (same rule, same message) on correct kernels")
    missed_classes = sorted(n for n, c in classes.items() if c["missed"] + c["noise"])
    print("classes with misses (missed + noise / buggy): " + (", ".join(
        f"{n} ({classes[n]['missed'] + classes[n]['noise']}/{classes[n]['buggy']})"
        for n in missed_classes) or "none"))

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cake_opt": args.cake_opt, "rules": [os.path.relpath(r, REPO) for r in rules],
                       "totals": tot, "classes": classes, "files": per_file,
                       "noise": sorted(f"{r}: {m}" for r, m in noise)}, f, indent=1, sort_keys=True)
    failed = bool(tot["invalid"])
    if args.min_caught is not None and tot["caught"] < args.min_caught:
        print(f"FAIL: caught {tot['caught']}, expected at least {args.min_caught}")
        failed = True
    if args.max_false_alarms is not None and tot["false_alarms"] > args.max_false_alarms:
        print(f"FAIL: {tot['false_alarms']} false alarms, expected at most {args.max_false_alarms}")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
