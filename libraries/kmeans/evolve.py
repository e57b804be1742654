#!/usr/bin/env python3
"""Evolution per shape bucket (issue #16, item 2): the library's measured shapes in buckets, each a
harness task (docs/Tasks.md, `generator`) whose candidates are one family's configurations, started
from the best configuration the table measured in the bucket.

    agent/cake library evolve --definition libraries/kmeans --db lib.db --work DIR [--backend batch]

`cake library evolve` (agent/cake_agent/library_evolve.py) calls `tasks()` and evolves each task
with the harness's search (tunables and tactics), every bucket's run in one database, so tactic
statistics (the task class `kmeans_lib`) carry from bucket to bucket; `winners()` reads the result.

Buckets: the table's points (tuning shapes, measured on the GPU) by dtype, D class, K class and work
class (B N K D; `CLASSES`). A bucket is evolved in the family that is fastest at most of its
points among the families that read the user's tensors as they are (`SEARCHED`: x [B, N, D],
c [B, K, D], |c|^2 [B, K], idx [B, N]; `cpw` reads x and c as flat arrays, with the symbols BND
and BKD besides; the staged families need the host's staging inside the measurement, which a
cake-run task does not have yet). Its start is that family's configuration measured at the most of
the bucket's points with the lowest mean log time relative to each point's best there (what the
sweep found), and the task's shapes are taken from those points. A bucket whose points are all
won by other families is left out, with the reason (`skipped`).

The tunables are the family's parameters with every value its plan (build.py) uses, crossed: the
combinations the sweep never built are the search's to find. A parameter that only some plan
configurations have takes 0 for "absent"; `index_bits` is 64 or 32 (the 32-bit twin). Table-only
parameters (tcd's resident-centroid `cs`, `pg` and the prefetching `pf`) are not searched. The
generator refuses a combination its family cannot build, and one whose domain (the constraints the
router honours, registry.py) excludes a shape of the bucket: the search never proposes those.
Candidates are checked by cake-run against examples/ref/kmeans_lib.cu (fp64 scores; an index is
accepted when its score is within rtol of the best, as the library's own check).
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import build  # noqa: E402
import family  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "runtime"))
from cake_library import expr  # noqa: E402
from cake_library.route import launch_sizes  # noqa: E402

SEARCHED = ("tcd", "lanes", "simt", "direct", "cpw", "wgmma", "splitd")
FLAT = {"cpw"}  # families whose kernels read x and c as flat arrays (symbols BND, BKD besides)
# Configurations not searched: table-only ones (registry.py: tcd's resident-centroid `cs`/`pg`, the
# prefetching `pf`, wgmma's `ra` and `ov`) and split-K (`ks`: a second kernel finishes the argmin,
# and a task measures one kernel).
NOT_SEARCHED_KEYS = {"tcd": {"cs", "pg", "pf"}, "wgmma": {"ks", "ra", "ov"}, "splitd": {"ks"}}
# Upper bounds of the classes (the last class is everything above).
CLASSES = {"D": (8, 32, 128, 512), "K": (16, 64, 512), "work": (1e6, 1e8, 1e10)}
SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32"}
RTOL = {"float16": 1e-5, "bfloat16": 1e-5, "float32": 2e-3}  # kmeans_bench's tolerances (tf32 for fp32)
# The speed-of-light floor must bound every legal kernel from below: tensor-core peaks (dense fp16/bf16;
# tf32 for fp32, which the library may read as tf32) and the H200's peak DRAM bandwidth (cake-run
# rotates buffers past the L2, docs/Runner.md), not the harness's CUDA-core default.
PEAK_FLOPS = {"float16": 989e12, "bfloat16": 989e12, "float32": 494e12}
PEAK_BANDWIDTH = 4.8e12
SHAPES_PER_TASK = 3


def _class(value, bounds):
    return next((i for i, b in enumerate(bounds) if value <= b), len(bounds))


def _range(i, bounds, fmt=str):
    lo = fmt(bounds[i - 1]) if i else "0"
    hi = fmt(bounds[i]) if i < len(bounds) else "inf"
    return f"{lo}-{hi}"


def bucket_of(point):
    """The bucket's name: dtype, then the D, K and work classes as ranges (file-name safe)."""
    work = point["B"] * point["N"] * point["K"] * point["D"]
    dc, kc = _class(point["D"], CLASSES["D"]), _class(point["K"], CLASSES["K"])
    wc = _class(work, CLASSES["work"])
    return (f"{SHORT[point['dtype']]}_D{_range(dc, CLASSES['D'])}_K{_range(kc, CLASSES['K'])}"
            f"_W{_range(wc, CLASSES['work'], lambda v: f'{v:.0e}'.replace('+', ''))}")


def space(fam, dtype):
    """(tunables, optional): each searched parameter's values in the family's plan (0 added for
    "absent" where only some configurations have it) and the names of the optional ones."""
    plans = [p for p in build.plan([dtype], 8) if build.family_of(p) == fam
             and not NOT_SEARCHED_KEYS.get(fam, set()) & set(p)]
    keys = sorted({k for p in plans for k in p} - {"dtype", "evolved"})  # "evolved" names, it is not searched
    optional = sorted(k for k in keys if any(k not in p for p in plans))
    tunables = {}
    for k in keys:
        values = sorted({p[k] for p in plans if k in p})
        if k in optional:
            if 0 in values or not all(isinstance(v, int) for v in values):
                raise ValueError(f"{fam}.{k}: only integer parameters without the value 0 may be optional "
                                 f"(0 means 'absent')")
            values = [0] + values
        tunables[k] = values
    tunables["index_bits"] = [64, 32]
    return tunables, optional


def params_of(values, optional):
    """A family's parameters from a genome's values: absent optional ones dropped."""
    p = {k: v for k, v in values.items() if not (k in optional and v == 0)}
    if p.get("index_bits") == 64:
        del p["index_bits"]
    return p


def instantiate(values, kernel):
    """The task generator (docs/Tasks.md): the configuration's IR with the task's kernel name.
    `values`: the fixed ones (family, dtype, optional, shapes) and the genome's."""
    values = dict(values)
    fam, optional, shapes = values.pop("family"), values.pop("optional"), values.pop("shapes")
    p = params_of(values, optional)
    if build.family_of(p) != fam:
        raise ValueError(f"the parameters {p} are not a {fam} configuration")
    if build.index_bits(p) == 32 and not build.twin_legal(p):
        raise ValueError("no 32-bit twin of this configuration")
    for s in shapes:
        why = refusal(fam, p, s)
        if why:
            raise ValueError(why)
    text = build.generate(p)
    old = "@" + build.variant_name(p) + "("
    if text.count(old) != 1:
        raise ValueError(f"expected one kernel {old[:-1]} in the generated IR")
    return text.replace(old, "@" + kernel + "(")


def refusal(fam, p, shape):
    """Why the configuration `p` does not serve the kernel shape (its family's domain, the router's
    constraint, or the widest D it serves), or None."""
    for c in family.FAMILIES[fam].domain(p):
        if not expr.evaluate(c, shape):
            return f"its domain '{c}' excludes the shape {shape}"
    widest = family.FAMILIES[fam].widest(p)
    if widest is not None and shape["D"] > widest:
        return f"it serves D up to {widest}, not the shape {shape}"
    return None


def kernel_shape(fam, point):
    """The sizes a family's kernel is launched with for a table point (route.launch_sizes): the
    user's, plus BND and BKD for the flat families; D padded to 16-byte rows and |c|^2 rows of
    pitch KP for the staged ones."""
    s = {k: point[k] for k in ("B", "N", "K", "D")}
    if fam in FLAT:
        return dict(s, BND=s["B"] * s["N"] * s["D"], BKD=s["B"] * s["K"] * s["D"])
    if family.FAMILIES[fam].staging == "rows+csq":
        sizes = launch_sizes({"staging": "rows+csq", "d_align": family.d_align(point["dtype"])},
                             s["B"], s["N"], s["D"], s["K"])
        return {k: v for k, v in sizes.items() if k not in ("BND", "BKD")}
    return s


def _config_classes(dtype):
    """{configuration: its `dtype` variants, narrowest D class first} (a wgmma or tcd configuration
    has one variant per D class, and its name is the same in every dtype; the router serves a
    shape from the narrowest class that covers its D)."""
    with open(os.path.join(HERE, "variants.json")) as f:
        out = {}
        for v in json.load(f)["variants"]:
            if v["dtype"] == dtype:
                out.setdefault(v["config"], []).append(v)
    for vs in out.values():
        vs.sort(key=lambda v: (v["max_d"] is None, v["max_d"] or 0, v["name"]))
    return out


def _widest(classes):
    """{configuration: its widest variant} (the one that serves the most shapes) of _config_classes."""
    return {c: vs[-1] for c, vs in classes.items()}


def _config_families(dtype):
    return _widest(_config_classes(dtype))


def buckets(table, only=None):
    """{bucket: [points]} of the table (``only``: those bucket names)."""
    out = {}
    for point in table["points"]:
        name = bucket_of(point)
        if only is None or name in only:
            out.setdefault(name, []).append(point)
    return out


def _start(points, fam, classes):
    """(parameters, name, points) of the family's configuration measured at the most of the bucket's
    points that it serves (its domain and widest D), and among those with the lowest mean log time
    relative to each point's best: the sweep's best for the bucket, and the points it serves."""
    configs = _widest(classes)
    excluded = NOT_SEARCHED_KEYS.get(fam, set())
    names = {c for p in points for c in p["ms"] if configs.get(c, {}).get("family") == fam
             and not configs[c].get("table_only") and not excluded & set(configs[c]["params"])}
    cover = {c: [p for p in points if c in p["ms"] and
                 refusal(fam, configs[c]["params"], kernel_shape(fam, p)) is None] for c in sorted(names)}
    cover = {c: v for c, v in cover.items() if v}  # the points that measured it and that it serves
    if not cover:
        return None
    score = {c: sum(math.log(p["ms"][c] / min(p["ms"].values())) for p in v) / len(v) for c, v in cover.items()}
    best = min(cover, key=lambda c: (-len(cover[c]), score[c]))
    # The kernel the table timed: the configuration's narrowest D class that serves the points
    # (session 47: starting from an arbitrary class, wgmma starts computed up to 3x the columns).
    shapes = [kernel_shape(fam, p) for p in cover[best]]
    start = next(v for v in classes[best] if all(refusal(fam, v["params"], s) is None for s in shapes))
    params = dict(start["params"], index_bits=start.get("index_bits", 64))
    return params, best, cover[best]


def _spread(points, most):
    """Up to ``most`` points from the smallest to the largest work (the ends and the middle)."""
    ranked = sorted(points, key=lambda p: p["B"] * p["N"] * p["K"] * p["D"])
    if len(ranked) <= most:
        return ranked
    return [ranked[round(i * (len(ranked) - 1) / (most - 1))] for i in range(most)]


def task_for(name, points, classes, budget):
    """(task JSON, None) for a bucket, or (None, why it is not evolved)."""
    winners = {}
    for p in points:
        fam = classes.get(min(p["ms"], key=p["ms"].get), [{}])[0].get("family")
        winners[fam] = winners.get(fam, 0) + 1
    searched = {f: n for f, n in winners.items() if f in SEARCHED}
    if not searched:
        return None, f"its {len(points)} points are won by {sorted(map(str, winners))}, none searched"
    fam = max(sorted(searched), key=searched.get)
    dtype = points[0]["dtype"]
    tunables, optional = space(fam, dtype)
    start = _start(points, fam, classes)
    if start is None:
        return None, f"no searched {fam} configuration was measured at a point it serves"
    params, start_config, points = start
    values = {k: params.get(k, 0) for k in tunables}
    if any(values[k] not in tunables[k] for k in tunables):
        return None, f"its best {fam} configuration {start_config} is outside the searched space"
    chosen = _spread(points, SHAPES_PER_TASK)
    shapes = [kernel_shape(fam, p) for p in chosen]
    flat, staged = fam in FLAT, family.FAMILIES[fam].staging == "rows+csq"
    best = [min(p["ms"].values()) for p in chosen]
    weights = [round(min(best) / b, 6) for b in best]  # each shape counts relative to its best time
    ty, eb = family.DTYPES[dtype][:2]  # the IR's element type and its bytes
    kernel = f"kmeans_lib_{dtype}"
    task = {
        "name": f"kmeans_lib_{name}",
        "description": f"KMeans library bucket {name} ({len(points)} measured points): the {fam} family, "
                       f"started from the sweep's best configuration {start_config}",
        "class": "kmeans_lib",
        "generator": {"path": os.path.abspath(__file__), "function": "instantiate",
                      "fixed": {"family": fam, "dtype": dtype, "optional": optional, "shapes": shapes}},
        "kernel": kernel,
        "tunables": {k: {"type": "int" if isinstance(v[0], int) else "enum", "values": v}
                     for k, v in tunables.items()},
        "start": values,
        "shapes": shapes,
        "reference": "kmeans_lib_ref.cubin",
        "ref_entry": f"kmeans_lib_{'flat_' if flat else 'staged_' if staged else ''}{dtype}_ref",
        "rtol": RTOL[dtype],
        # The library's benchmark (kmeans_bench.graph_time) replays CUDA graphs: with cake-run's
        # default timer, microsecond kernels were timed 2.2x the table's (host launch latency in
        # every iteration; session 46's generation 0).
        "timer": "graph",
        "objective": {"kind": "weighted", "weights": weights},
        "floor": {"bytes": f"{eb} * (B * N * D + B * K * D) + 4 * B * K + 4 * B * N",
                  "flops": "2 * B * N * K * D", "flops_per_s": PEAK_FLOPS[dtype],
                  "bandwidth": PEAK_BANDWIDTH},
        "budget": budget,
        "interface": {"kernel": kernel, "symbols": ["B", "N", "K", "D"] + (["BND", "BKD"] if flat else []), "params": [
            {"name": "x", "dtype": ty, "shape": ["BND"] if flat else ["B", "N", "D"], "role": "in"},
            {"name": "c", "dtype": ty, "shape": ["BKD"] if flat else ["B", "K", "D"], "role": "in"},
            {"name": "csq", "dtype": "f32", "shape": ["B", "K"], "role": "in"},
            {"name": "idx", "dtype": "i32", "shape": ["B", "N"], "role": "out"}]},
        # The start's own table times beside the shapes' best: what cake-run's time of the start
        # is compared with (the same kernel, the library's timer).
        "comment": {"bucket": name, "family": fam, "start_config": start_config, "points": len(points),
                    "table_best_ms": best, "table_start_ms": [p["ms"][start_config] for p in chosen]},
    }
    if staged:  # TMA descriptors have no declared form in an interface yet: the seed's is used (docs/Tasks.md)
        del task["interface"]
    return task, None


def tasks(definition, out_dir, only=None, budget=None, dtypes=None):
    """Writes one task file per evolvable bucket into ``out_dir``; returns ([paths], {bucket: why
    not}). ``only``: bucket names; ``dtypes``: limit to those; ``budget``: the tasks' budget."""
    with open(os.path.join(definition, "table.json")) as f:
        table = json.load(f)
    classes = {d: _config_classes(d) for d in family.DTYPES}
    budget = dict({"candidates": 12, "gpu_evals": 12, "generation": 6, "screen": 2}, **(budget or {}))
    os.makedirs(out_dir, exist_ok=True)
    paths, skipped = [], {}
    for name, points in sorted(buckets(table, only).items()):
        if dtypes and points[0]["dtype"] not in dtypes:
            continue
        task, why = task_for(name, points, classes[points[0]["dtype"]], budget)
        if task is None:
            skipped[name] = why
            continue
        path = os.path.join(out_dir, task["name"] + ".json")
        with open(path, "w") as f:
            json.dump(task, f, indent=1)
        paths.append(path)
    return paths, skipped


def record_winners(rows, path=build.EVOLVED, min_gain=1.03):
    """Adds to ``path`` (evolved.json, which build.py's plan reads) each bucket's fastest candidate
    that beat its start by ``min_gain`` in the same batch, was measured on all the bucket task's
    shapes and is not already planned; returns the entries added. A candidate rewritten by a
    tactic is left out (a configuration is parameters only; its row says so)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        data = {"comment": "configurations found by evolution per bucket (libraries/README.md); "
                           "build.py builds them beside the plan's", "configs": []}
    known = {build.variant_name(p) for p in build.plan(list(family.DTYPES), 8, evolved_path=path)}
    added = []
    for row in rows:
        best, start, fixed = row["best"], row.get("start"), row.get("fixed")
        if not start or not fixed or row.get("best_over_start", 0) < min_gain or best["tactics"]:
            continue
        if set(best["ms"]) != set(start["ms"]):
            continue
        p = dict(params_of(best["genome"][1], fixed["optional"]), dtype=fixed["dtype"])
        p.pop("index_bits", None)  # build.py builds the 32-bit twin of every configuration
        name = build.variant_name(p)
        if name in known:
            continue
        known.add(name)
        entry = {"params": p, "bucket": row["comment"]["bucket"], "task": row["task"],
                 "best_over_start": round(row["best_over_start"], 4), "start": row["comment"]["start_config"],
                 "ms": best["ms"], "start_ms": start["ms"]}
        data["configs"].append(entry)
        added.append(entry)
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    return added
