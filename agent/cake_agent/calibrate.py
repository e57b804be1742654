"""Calibration of a hardware profile from measurements: ``cake calibrate`` (docs/CostModel.md).

Input: a dataset of measured records, each with the cost report of its variant for its sizes.
The cost report (``cake-opt --cake-print-cost="sizes=... json=FILE"``) carries ``model``: the
predicted time in seconds as an expression over the profile's parameters. The fit minimizes

    sum_i (log pred_i(theta) - log measured_i)^2 + prior * sum_j (theta_j - theta0_j)^2

over theta = log(parameters) (scipy's least_squares when scipy is installed, else the
Levenberg-Marquardt below; numeric Jacobian either way), so every parameter stays positive and a
weak pull toward the prior keeps parameters that the data cannot see where they were. Accuracy is
reported before and after on held-out records, split by variant (a variant's records are all in
the training set or all in the held-out set).

Standard library only; scipy is optional (the fit and Spearman's rho use it when it imports, and
the standard-library code here otherwise). Records may be:
- a dataset: ``{"records": [{"variant", "sizes", "time_ms", "report"}]}`` (what ``join`` writes);
- cake-run JSON records (a list, or nested as bench/results store them) joined with cost reports
  by ``--reports`` (files of ``{"kernels": [...]}``, matched on kernel name and sizes) or computed
  here with ``--ir DIR`` (``DIR/<kernel>.mlir``, or ``DIR/<variant>.mlir``) and ``--cake-opt``.
"""
import argparse
import copy
import datetime
import functools
import hashlib
import json
import math
import os
import subprocess
import sys

from . import jsonfile

# Parameters the fit moves by default (clock_GHz is left alone: only products with per-clock
# rates are identifiable; sm_count is structure).
DEFAULT_FIT = [
    "tensor_TFLOPS.f16", "tensor_TFLOPS.bf16", "tensor_TFLOPS.tf32", "fp32_TFLOPS",
    "mma_sync_TFLOPS.f16", "mma_sync_TFLOPS.bf16", "mma_sync_TFLOPS.tf32",
    "sfu_ops_per_clk_per_sm", "lsu_wavefronts_per_clk_per_sm", "dram_bandwidth_GBps",
    "l2_bandwidth_GBps", "global_latency_ns", "tma_latency_ns", "barrier_ns", "mbarrier_wait_ns",
    "launch_overhead_us", "l2_reread_miss",
]


class CalibrationError(Exception):
    pass


# scipy is optional: the harness must run on the standard library alone. Tests set USE_SCIPY =
# False to run the fallback with scipy installed.
USE_SCIPY = True


@functools.lru_cache(maxsize=None)
def _import_scipy():
    # Imported on first use, not with this module: report.py imports spearman, and scipy's import
    # takes most of a second.
    try:
        import scipy.optimize
        import scipy.stats
    except ImportError:
        return None
    return scipy


def _scipy():
    """The scipy package when it is installed and USE_SCIPY is set, else None."""
    return _import_scipy() if USE_SCIPY else None


# --- the model --------------------------------------------------------------------------------

def evaluate(node, params, sizes=None):
    """Evaluates a cost-report model expression (docs/CostModel.md, "model")."""
    if isinstance(node, (int, float)):
        return float(node)
    if isinstance(node, dict):
        if "param" in node:
            try:
                return float(params[node["param"]])
            except KeyError:
                raise CalibrationError(f"the model needs parameter '{node['param']}'")
        if "size" in node:
            if sizes is None or node["size"] not in sizes:
                raise CalibrationError(f"the model needs size '{node['size']}'")
            return float(sizes[node["size"]])
        raise CalibrationError(f"bad model node {node!r}")
    op, args = node[0], [evaluate(a, params, sizes) for a in node[1:]]
    if op == "+":
        return sum(args)
    if op == "*":
        out = 1.0
        for a in args:
            out *= a
        return out
    if op == "-":
        return args[0] - args[1]
    if op == "/":
        return args[0] / args[1] if args[1] else 0.0
    if op == "ceildiv":
        return math.ceil(args[0] / args[1] - 1e-9) if args[1] else 0.0
    if op == "max":
        return max(args)
    if op == "min":
        return min(args)
    raise CalibrationError(f"unknown model operator {op!r}")


def model_params(node, out=None):
    out = set() if out is None else out
    if isinstance(node, dict) and "param" in node:
        out.add(node["param"])
    elif isinstance(node, list):
        for a in node[1:]:
            model_params(a, out)
    return out


def profile_params(profile):
    """The profile's parameters flattened as the cost report names them."""
    flat = {}
    for k, v in profile["params"].items():
        if isinstance(v, dict):
            for kk, vv in v.items():
                flat[f"{k}.{kk}"] = float(vv)
        elif isinstance(v, (int, float)):
            flat[k] = float(v)
    flat["sm_count"] = float(profile["structure"]["sm_count"])
    return flat


def unflatten_into(profile, flat):
    out = copy.deepcopy(profile)
    for k, v in flat.items():
        if k == "sm_count":
            continue
        if "." in k:
            group, key = k.split(".", 1)
            out["params"].setdefault(group, {})[key] = round(v, 6)
        else:
            out["params"][k] = round(v, 6)
    return out


# --- metrics ----------------------------------------------------------------------------------

def _ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0
        i = j + 1
    return ranks


def spearman(a, b):
    """Spearman's rank correlation; None for fewer than two pairs or a constant side."""
    if len(a) < 2 or len(set(a)) < 2 or len(set(b)) < 2:
        return None
    scipy = _scipy()
    if scipy:
        return float(scipy.stats.spearmanr(a, b)[0])
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb)


def metrics(pred, meas, groups=None):
    """Spearman, share within 1.25x and 2x, MAPE (%), and per group whether the top-5 predicted
    contains the measured best."""
    n = len(pred)
    if not n:
        return {"n": 0}
    ratio = [max(p / m, m / p) if p > 0 and m > 0 else float("inf") for p, m in zip(pred, meas)]
    out = {
        "n": n,
        "spearman": spearman(pred, meas),
        "within_1_25x": sum(r <= 1.25 for r in ratio) / n,
        "within_2x": sum(r <= 2.0 for r in ratio) / n,
        "mape_pct": 100.0 * sum(abs(p - m) / m for p, m in zip(pred, meas)) / n,
    }
    if groups:
        hits, total = 0, 0
        by = {}
        for i, g in enumerate(groups):
            by.setdefault(g, []).append(i)
        for idx in by.values():
            if len(idx) < 2:
                continue
            best = min(idx, key=lambda i: meas[i])
            top = sorted(idx, key=lambda i: pred[i])[:5]
            hits += best in top
            total += 1
        out["top5_has_best"] = f"{hits}/{total}" if total else None
    return out


# --- the fit ----------------------------------------------------------------------------------

def _solve(a, b):
    """Solves a x = b (small dense system, Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            continue
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-300 else 0.0 for i in range(n)]


def _sum_sq(res):
    return sum(v * v for v in res)


def _levenberg_marquardt(residuals, theta0, lo, hi, iters):
    """Minimizes sum(residuals(theta)^2) within [lo, hi] (forward-difference Jacobian, each step
    clamped to the box). The fallback of _least_squares without scipy."""
    theta = theta0[:]
    lam = 1e-2
    res = residuals(theta)
    c = _sum_sq(res)
    for _ in range(iters):
        h = 1e-4
        cols = []
        for j in range(len(theta)):
            t = theta[:]
            t[j] += h
            rj = residuals(t)
            cols.append([(a - b) / h for a, b in zip(rj, res)])
        jtj = [[sum(ci * cj for ci, cj in zip(cols[i], cols[k])) for k in range(len(theta))]
               for i in range(len(theta))]
        jtr = [sum(ci * r for ci, r in zip(cols[i], res)) for i in range(len(theta))]
        improved = False
        for _ in range(10):
            a = [[jtj[i][k] + (lam * (jtj[i][i] + 1e-9) if i == k else 0.0) for k in range(len(theta))]
                 for i in range(len(theta))]
            step = _solve(a, [-v for v in jtr])
            cand = [min(max(t + s, l), u) for t, s, l, u in zip(theta, step, lo, hi)]
            rc = residuals(cand)
            cc = _sum_sq(rc)
            if cc < c:
                theta, res, c = cand, rc, cc
                lam = max(lam / 3, 1e-7)
                improved = True
                break
            lam *= 4
        if not improved:
            break
    return theta


def _least_squares(residuals, theta0, lo, hi, iters):
    """(theta minimizing sum(residuals(theta)^2) within [lo, hi], the solver's name)."""
    if not theta0:
        return theta0, "none"
    scipy = _scipy()
    if scipy:
        # Trust-region reflective: handles the box itself; x_scale="jac" evens out parameters the
        # data constrains very differently.
        result = scipy.optimize.least_squares(residuals, theta0, bounds=(lo, hi), method="trf",
                                              x_scale="jac")
        return [float(v) for v in result.x], "scipy.optimize.least_squares"
    return _levenberg_marquardt(residuals, theta0, lo, hi, iters), "levenberg-marquardt"


def fit(records, prior, names, prior_weight=0.05, iters=60, bound=math.log(30.0)):
    """Least squares in log space, each parameter within a factor e^bound of its prior.
    Returns (params, info)."""
    names = [n for n in names if n in prior]
    theta0 = [math.log(max(prior[n], 1e-6)) for n in names]
    y = [math.log(r["time_ms"] * 1e-3) for r in records]

    def params_of(t):
        p = dict(prior)
        for n, v in zip(names, t):
            p[n] = math.exp(v)
        return p

    def residuals(t):
        p = params_of(t)
        res = []
        for r, yi in zip(records, y):
            pred = evaluate(r["report"]["model"], p)
            res.append(math.log(max(pred, 1e-12)) - yi)
        w = math.sqrt(prior_weight)
        res.extend(w * (ti - t0) for ti, t0 in zip(t, theta0))
        return res

    theta, solver = _least_squares(residuals, theta0, [t - bound for t in theta0],
                                   [t + bound for t in theta0], iters)
    return params_of(theta), {"cost_before": _sum_sq(residuals(theta0)),
                              "cost_after": _sum_sq(residuals(theta)), "fitted": names,
                              "solver": solver}


# --- data -------------------------------------------------------------------------------------

def _walk_records(doc):
    """cake-run records anywhere in a results file (lists, {"cake": ...}, {"records": ...})."""
    if isinstance(doc, list):
        for d in doc:
            yield from _walk_records(d)
    elif isinstance(doc, dict):
        if "time_ms" in doc and "sizes" in doc and ("kernel" in doc or "variant" in doc):
            yield doc
            return
        for k in ("records", "cake", "results", "runs"):
            if k in doc:
                yield from _walk_records(doc[k])


def _size_key(sizes):
    return tuple(sorted((k, int(v)) for k, v in sizes.items()))


def load_reports(paths):
    """{(kernel-or-variant, sizes): kernel report} from cost-report files."""
    out = {}
    for p in paths:
        doc = jsonfile.read(p, CalibrationError)
        variant = doc.get("variant")
        for k in doc.get("kernels", []):
            if k.get("status") != "ok":
                continue
            out[(variant or k["kernel"], _size_key(k["sizes"]))] = k
            out.setdefault((k["kernel"], _size_key(k["sizes"])), k)
    return out


def cost_report(cake_opt, ir, sizes, profile=None, extra=()):
    opts = "sizes=" + ",".join(f"{k}={v}" for k, v in sizes.items()) + " json=-"
    if profile:
        opts += f" profile={profile}"
    argv = [cake_opt, ir, f"--cake-print-cost={opts}", "-o", os.devnull, *extra]
    res = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if res.returncode != 0:
        raise CalibrationError(f"{' '.join(argv)} failed: {res.stderr.strip()[:400]}")
    return json.loads(res.stdout)["kernels"][0]


def build_dataset(record_files, reports=None, ir_dir=None, cake_opt=None, profile=None):
    """Joins measured records with cost reports: [{variant, group, sizes, time_ms, report}]."""
    known = load_reports(reports or [])
    data, missing = [], []
    for path in record_files:
        doc = jsonfile.read(path, CalibrationError)
        if isinstance(doc, dict) and "records" in doc and doc["records"] and "report" in doc["records"][0]:
            data.extend(doc["records"])
            continue
        for r in _walk_records(doc):
            if r.get("status", "ok") != "ok" or not r.get("time_ms"):
                continue
            variant = r.get("variant") or r.get("example") or r["kernel"]
            key = (variant, _size_key(r["sizes"]))
            rep = known.get(key) or known.get((r.get("kernel"), key[1]))
            if rep is None and ir_dir and cake_opt:
                for name in (variant, r.get("kernel")):
                    ir = os.path.join(ir_dir, f"{name}.mlir")
                    if name and os.path.exists(ir):
                        rep = cost_report(cake_opt, ir, r["sizes"], profile)
                        known[key] = rep
                        break
            if rep is None:
                missing.append(key)
                continue
            data.append({"variant": variant, "family": r.get("family", r.get("kernel")),
                         "group": f"{r.get('family', r.get('kernel'))}:{_size_key(r['sizes'])}",
                         "sizes": r["sizes"], "time_ms": float(r["time_ms"]), "report": rep})
    return data, missing


def dedupe(data):
    """One record per (variant, sizes): the median time over seeds."""
    by = {}
    for r in data:
        by.setdefault((r["variant"], _size_key(r["sizes"])), []).append(r)
    out = []
    for rs in by.values():
        times = sorted(r["time_ms"] for r in rs)
        r = dict(rs[0])
        r["time_ms"] = times[len(times) // 2]
        out.append(r)
    return out


def split_by_variant(data, holdout=0.3, salt="cake"):
    """Deterministic split: a variant is held out when its hash falls below `holdout`."""
    train, test = [], []
    for r in data:
        h = int(hashlib.sha1((salt + r["variant"]).encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
        (test if h < holdout else train).append(r)
    return train, test


def predictions(data, params):
    return [evaluate(r["report"]["model"], params) * 1e3 for r in data]


def calibrate(profile, data, holdout=0.3, names=None, prior_weight=0.05, salt="cake"):
    prior = profile_params(profile)
    train, test = split_by_variant(data, holdout, salt)
    if not train:
        raise CalibrationError("no training records (every variant was held out)")
    used = set()
    for r in train:
        model_params(r["report"]["model"], used)
    names = [n for n in (names or DEFAULT_FIT) if n in used]
    fitted, info = fit(train, prior, names, prior_weight)

    def report(rows, params):
        return metrics(predictions(rows, params), [r["time_ms"] for r in rows],
                       [r.get("group") for r in rows])

    summary = {
        "records": len(data), "train_records": len(train), "test_records": len(test),
        "train_variants": sorted({r["variant"] for r in train}),
        "test_variants": sorted({r["variant"] for r in test}),
        "before": {"train": report(train, prior), "test": report(test, prior)},
        "after": {"train": report(train, fitted), "test": report(test, fitted)},
        "params": {n: {"from": prior[n], "to": round(fitted[n], 6)} for n in names},
        "fit": info,
    }
    new = unflatten_into(profile, fitted)
    new["version"] = int(profile.get("version", 0)) + 1
    new["calibration"] = {
        "date": datetime.date.today().isoformat(),
        "from_version": profile.get("version"),
        "holdout": holdout,
        "prior_weight": prior_weight,
        **{k: summary[k] for k in ("records", "train_records", "test_records", "train_variants",
                                   "test_variants", "before", "after", "params")},
    }
    return new, summary


def format_summary(s):
    def line(m):
        if not m.get("n"):
            return "no records"
        sp = m["spearman"]
        return (f"n={m['n']} spearman={'-' if sp is None else f'{sp:.3f}'} "
                f"within1.25x={m['within_1_25x']:.0%} within2x={m['within_2x']:.0%} "
                f"MAPE={m['mape_pct']:.1f}% top5-has-best={m.get('top5_has_best')}")
    out = [f"records: {s['records']} ({s['train_records']} train, {s['test_records']} held out by variant)"]
    for when in ("before", "after"):
        for part in ("train", "test"):
            out.append(f"{when:6} {part:5}: {line(s[when][part])}")
    for n, v in s["params"].items():
        out.append(f"  {n}: {v['from']:g} -> {v['to']:g}")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="cake calibrate", description=__doc__.split("\n")[0])
    ap.add_argument("records", nargs="*", help="measured records (cake-run JSON) or a dataset")
    ap.add_argument("--from-db", metavar="DB", help="take the records from a harness database (measured shapes of "
                    "candidates with a stored cost report)")
    ap.add_argument("--run", type=int, help="with --from-db: only this run")
    ap.add_argument("--profile", required=True, help="the profile to refit (profiles/h200.json)")
    ap.add_argument("--reports", nargs="*", default=[], help="cost-report files to join with")
    ap.add_argument("--ir", help="folder of IR files (<variant or kernel>.mlir) to compute reports")
    ap.add_argument("--cake-opt", default=None, help="cake-opt (default build/bin/cake-opt)")
    ap.add_argument("--holdout", type=float, default=0.3, help="share of variants held out")
    ap.add_argument("--salt", default="cake", help="salt of the variant split")
    ap.add_argument("--prior-weight", type=float, default=0.05)
    ap.add_argument("--fit", help="comma-separated parameters to fit (default: docs/CostModel.md)")
    ap.add_argument("--no-dedupe", action="store_true", help="keep every seed's record")
    ap.add_argument("--dataset-out", help="write the joined dataset here")
    ap.add_argument("-o", "--out", help="write the new profile version here")
    ap.add_argument("--summary-json", help="write the accuracy summary here")
    args = ap.parse_args(argv)
    try:
        profile = jsonfile.read(args.profile, CalibrationError)
        cake_opt = args.cake_opt or os.path.join(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "build", "bin", "cake-opt")
        if not args.records and not args.from_db:
            raise CalibrationError("give measured records or --from-db DB")
        data, missing = build_dataset(args.records, args.reports, args.ir, cake_opt, args.profile)
        if args.from_db:
            from . import learn
            from .db import Database, Unreadable
            if not os.path.exists(args.from_db):
                raise CalibrationError(f"no database at {args.from_db}")
            try:
                rows, skipped = learn.calibration_dataset(Database(args.from_db, readonly=True), args.run)
            except Unreadable as e:
                raise CalibrationError(str(e)) from None
            print(f"cake calibrate: {len(rows)} measured shapes from {args.from_db}"
                  + (f" ({skipped} without a cost report with a model for their sizes)" if skipped else ""),
                  file=sys.stderr)
            data.extend(rows)
        if missing:
            print(f"cake calibrate: {len(missing)} records without a cost report (skipped), e.g. "
                  f"{missing[0]}", file=sys.stderr)
        if not args.no_dedupe:
            data = dedupe(data)
        if not data:
            raise CalibrationError("no records with a cost report")
        if args.dataset_out:
            with open(args.dataset_out, "w") as f:
                json.dump({"records": data}, f)
        names = args.fit.split(",") if args.fit else None
        new, summary = calibrate(profile, data, args.holdout, names, args.prior_weight, args.salt)
    except (CalibrationError, OSError, json.JSONDecodeError) as e:
        print(f"cake calibrate: error: {e}", file=sys.stderr)
        return 2
    print(format_summary(summary))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(new, f, indent=2)
            f.write("\n")
        print(f"wrote {args.out} (version {new['version']})")
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump(summary, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
