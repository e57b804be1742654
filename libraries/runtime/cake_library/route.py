"""Which kernel serves a KMeans shape: legality from the manifests, choice from the measurements.

Pure Python (no torch, no GPU): `cake library route` and the package's dispatcher give the same
answer. A library folder holds `library.json`:

    {"op": "kmeans_assign", "variants": [{"name", "family" (a label: "wgmma", "splitd", "lanes", ...),
      "dtype", "max_d" (the widest D it serves, null: any), "d_align", "staging" (what the host
      does before the launch: "none", "rows" or "rows+csq"; libraries/kmeans/family.py's
      FAMILIES), "config", "constraints" (the manifest's and the family's domain),
      "manifest": {...the kernel's manifest entry; not needed to route...}}, ...],
     "table": {"points": [{"dtype", "B", "N", "D", "K", "ms": {config: median ms}}, ...]}}

(A table may carry "neighbours": n to route with another count than NEIGHBOURS: for experiments
such as bench/library/route_cv.py --neighbours, not for shipped tables.)

Routing: the variants of the shape's dtype that serve its D (rounded up to d_align) and whose
constraints hold are legal: every variant with no widest D, and of each family with D classes the
smallest class that covers D. The
configuration (tile sizes, warpgroups, grid style) is chosen from the measured points nearest in
(log B, log N, log K, log D), points of a kindred dtype (DTYPE_DISTANCE) counted as that much
farther and other dtypes not at all: the log of each configuration's time relative to the
best measured at that point, averaged over the neighbours that measured it with inverse-distance
weights; the lowest average wins.
Outside the table, configurations that differ only in load width (width_groups: tcd's, lanes'
and cpw's "v") are scored as one group: the shape's widest legal width, judged at each neighbour by the
member of the widest width not above it (else the narrowest, WIDTH_HALVING_COST slower per
halving), since an odd-D neighbour could only measure v = 1.
A shape of the table itself (same dtype and sizes) takes its own fastest legal configuration.
Table-only configurations (variants with "table_only": true: tcd's resident-centroid and
pipelined ones, measured only where the tuner aimed them) serve the points that measured them and
are not judged elsewhere: their times exist only where the tuner aimed them, so neighbours would
judge them on a biased sample (leave-one-out over the table, session 35: regret 1.121 when
neighbours judged them, 1.114 as table-only; bench/results/2026-12-05-library-kmeans-15).
With no measured neighbour: DEFAULT_CONFIG when legal, else SMALL_DEFAULT.

32-bit twins (variants with "index_bits": 32, configuration `<config>_i32`; libraries/kmeans/
build.py) are measured only where their 64-bit configuration was among a shape's fastest, so
their relative times at neighbours are biased low. A shape outside the table therefore chooses
among the 64-bit configurations, then takes the chosen one's twin where it is legal and the
table says it is faster: its mean log time ratio to the 64-bit build over the points that
measured both (twin_preferences; of its family's configurations when none measured it) is
below 0.
A shape of the table takes its own fastest legal configuration of either width.
"""
import json
import math

from . import expr


# Without measurements: the tensor-core kernel when one serves the D, else the warp-per-point one.
DEFAULT_CONFIG, SMALL_DEFAULT = "k128_w2_p", "simt_w4"
# How many measured points route a shape outside the table. Session 13 chose 8 by leave-one-out;
# from build 9 (session 24) the tune files' own "neighbours": 4, which their writers defaulted
# to, overrode it unnoticed. Session 29, on build 12's table (route_cv.py): 4 1.113, 8 1.101, 12
# 1.100, 16 1.096 (with more choices unmeasured at their shape: 72, 64, 64, 69). One constant
# now, read by both routers (dispatch/generate.py); tables no longer carry it.
NEIGHBOURS = 8
# Neighbours weigh 1 / (squared log2 distance + this): the nearest counts most, an exact match
# does not get an infinite weight. Chosen by leave-one-out over the tune table
# (bench/library/route_cv.py: geomean regret 1.162 with equal weights and plain ratios, 1.140
# with these weights and log ratios; session 10). Session 13, on the denser table: 1.0 with 8
# neighbours 1.094, against 1.108 at 0.25 with 4 (0.5/8 1.099,
# 2.0/8 1.094, 1.0/12 1.109).
DISTANCE_SOFTENING = 1.0
# Squared distance added between points of kindred dtypes: fp16 and bf16 run the same kernels on
# the same tensor cores with the same element width, so their measurements transfer (one table
# per dtype pair is twice as dense). fp32 runs other instructions and is never mixed in. Chosen by
# leave-one-out (route_cv.py, session 12, on the re-timed table: regret 1.166 without, 1.107 at
# 0.5, 1.112 at 2, 1.132 at 4).
DTYPE_DISTANCE = {("float16", "bfloat16"): 2.0, ("bfloat16", "float16"): 2.0}


# The most elements x or c may hold: the kernels index in 64 bits, and D padded to its class (at
# most 2x) must not overflow them. Dispatch.cpp refuses the same shapes.
MAX_ELEMENTS = 2 ** 62

TWIN_SUFFIX = "_i32"
# What halving a configuration's load width costs: the geomean of time(v) / time(2v) over the
# table's points that measured both (2498 pairs of tcd and lanes configurations, session 26: 1.25;
# median 1.17).
WIDTH_HALVING_COST = 1.25


def twin_preferences(variants, points):
    """{64-bit configuration: whether its 32-bit twin is faster}, from the points that measured
    both builds (of the configuration itself, else of its family's configurations)."""
    family = {v["config"]: v["family"] for v in variants}
    twins = {v["config"][:-len(TWIN_SUFFIX)] for v in variants if v["config"].endswith(TWIN_SUFFIX)}
    logs, by_family = {}, {}
    for p in points:
        for cfg in twins:
            a, b = p["ms"].get(cfg), p["ms"].get(cfg + TWIN_SUFFIX)
            if a and b:
                r = math.log(b / a)
                logs.setdefault(cfg, []).append(r)
                by_family.setdefault(family.get(cfg), []).append(r)
    out = {}
    for cfg in sorted(twins):
        r = logs.get(cfg) or by_family.get(family.get(cfg)) or [0.0]
        out[cfg] = sum(r) / len(r) < 0
    return out


def width_groups(variants):
    """{configuration: (group, width)}: configurations that differ only in their load width
    (params "v": tcd, lanes, cpw) form one group; any other configuration is a group of its own (width
    0). Shapes outside the table are routed per group (Router._route)."""
    out = {}
    for v in variants:
        params = v.get("params") or {}
        if "v" in params:
            # tcd's "cs" is its D class (max_d), not part of the configuration: every class of a
            # configuration is in its group.
            rest = {k: x for k, x in params.items() if k not in ("v", "dtype", "index_bits", "cs")}
            out[v["config"]] = (v["family"] + "|" + json.dumps(rest, sort_keys=True), int(params["v"]))
        else:
            out[v["config"]] = (v["config"], 0)
    return out


def own_points_only(variants):
    """The configurations judged only at the points that measured them: 32-bit twins and
    table-only variants (module docstring). The generated dispatcher takes the same set."""
    return {v["config"] for v in variants if v["config"].endswith(TWIN_SUFFIX) or v.get("table_only")}


def dtype_distance(a, b):
    """Squared distance added between points of dtypes a and b; None: never mixed."""
    return 0.0 if a == b else DTYPE_DISTANCE.get((a, b))


class NoKernel(ValueError):
    """No kernel of the library serves the shape; the message says why."""


def round_up(v, m):
    return -(-v // m) * m


STAGINGS = ("none", "rows", "rows+csq")

# The kernels a library holds besides its routed variants (library.json's lists): the centroid
# updates and new centroids, the staging kernels, the split-K finish and |c|^2 (families/*.py).
AUXILIARY_LISTS = ("update_variants", "centroids_variants", "pad_variants", "finish_variants",
                   "csq_variants")


def auxiliary_kernels(definition):
    """Every entry of a definition's auxiliary lists (each names one kernel)."""
    return [v for key in AUXILIARY_LISTS for v in definition.get(key, [])]


def launch_sizes(variant, B, N, D, K):
    """The kernel's symbols for a user shape. Staging "none": the user's sizes; "rows": D padded
    to d_align; "rows+csq": and |c|^2 in rows of KP (16-byte aligned row starts when B > 1),
    BKP = B * KP values in all. Every staging: BND and BKD, the elements of x and c (kernels that
    read them as flat arrays: cpw, and tcd's `fl` configurations)."""
    staging = variant["staging"]
    d = D if staging == "none" else round_up(D, variant["d_align"])
    out = {"B": B, "N": N, "K": K, "D": d}
    if staging == "rows+csq":
        kp = K if B == 1 or K % 4 == 0 else round_up(K, 4)
        out.update(KP=kp, BKP=B * kp)
    out.update(BND=B * N * d, BKD=B * K * d)
    return out


def _features(s):
    return [math.log2(max(s[k], 1)) for k in ("B", "N", "K", "D")]


VARIANT_KEYS = ("name", "family", "dtype", "max_d", "d_align", "staging", "config", "constraints")
POINT_KEYS = ("dtype", "B", "N", "D", "K", "ms")


def _is_int(v, least):
    return isinstance(v, int) and not isinstance(v, bool) and v >= least


def check_definition(definition, check_variants=True):
    """Raises ValueError naming the first thing a routing definition lacks or gets wrong (so that
    routing never fails on the definition itself). `check_variants` False: the list of variants
    is not looked into (checked before)."""
    if not isinstance(definition, dict) or definition.get("op") != "kmeans_assign":
        op = definition.get("op") if isinstance(definition, dict) else None
        raise ValueError(f"not a KMeans assignment library: op {op!r}")
    variants = definition.get("variants")
    if not isinstance(variants, list) or not variants:
        raise ValueError("the library lists no variants")
    for i, v in enumerate(variants if check_variants else ()):
        missing = [k for k in VARIANT_KEYS if not isinstance(v, dict) or k not in v]
        if missing:
            raise ValueError(f"variant {i}: missing {', '.join(missing)}")
        for k in ("name", "family", "dtype", "config"):
            if not isinstance(v[k], str) or not v[k]:
                raise ValueError(f"variant {i}: {k} {v[k]!r} is not a name")
        if v["staging"] not in STAGINGS:
            raise ValueError(f"variant {i}: staging {v['staging']!r}, expected one of {', '.join(STAGINGS)}")
        if not _is_int(v["d_align"], 1):
            raise ValueError(f"variant {i}: d_align {v['d_align']!r}, expected an integer >= 1")
        if v["max_d"] is not None and not _is_int(v["max_d"], 1):
            raise ValueError(f"variant {i}: max_d {v['max_d']!r}, expected an integer >= 1 or null")
        if not isinstance(v["constraints"], list):
            raise ValueError(f"variant {i}: constraints is not a list of expressions")
        for c in v["constraints"]:
            try:
                expr.names(c)
            except expr.ExprError as e:
                raise ValueError(f"variant {i}: constraint {c!r}: {e}") from None
    table = definition.get("table") or {}
    if not isinstance(table, dict) or not isinstance(table.get("points", []), list):
        raise ValueError("the routing table is not {\"points\": [...]}")
    if "neighbours" in table and not _is_int(table["neighbours"], 1):
        raise ValueError(f"the routing table's neighbours {table['neighbours']!r}, expected an integer >= 1")
    for i, p in enumerate(table.get("points", [])):
        missing = [k for k in POINT_KEYS if not isinstance(p, dict) or k not in p]
        if missing:
            raise ValueError(f"table point {i}: missing {', '.join(missing)}")
        for k in ("B", "N", "D", "K"):
            if not _is_int(p[k], 1):
                raise ValueError(f"table point {i}: {k} {p[k]!r}, expected an integer >= 1")
        ms = p["ms"]
        if not isinstance(ms, dict) or not ms or not all(
                isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t < math.inf
                for t in ms.values()):
            raise ValueError(f"table point {i}: ms is not {{configuration: time > 0}} with at least one time")


class Router:
    def __init__(self, definition, variants_checked=False):
        """`variants_checked`: the definition's variants already passed check_definition (a
        leave-one-out over the table builds hundreds of routers over the same variants)."""
        check_definition(definition, check_variants=not variants_checked)
        self.variants = definition["variants"]
        table = definition.get("table") or {}
        self.points = table.get("points", [])
        self.neighbours = int(table.get("neighbours", NEIGHBOURS))
        self.twin_preferred = twin_preferences(self.variants, self.points)
        self.width_group = width_groups(self.variants)
        self.own_points_only = own_points_only(self.variants)
        # Per dtype, the variants grouped by what legality reads (widest D, alignment, staging,
        # constraints): ~600 groups of a dtype's ~2,900 variants, checked once each per shape.
        self._by_dtype = {}
        for v in self.variants:
            groups = self._by_dtype.setdefault(v["dtype"], {})
            groups.setdefault((v["max_d"], v["d_align"], v["staging"], tuple(v["constraints"])), []).append(v)
        self._routes = {}
        self._judged = {}        # shape -> (by_config, exact, score, seen) of its route

    def legal(self, B, N, D, K, dtype):
        for name, v in (("B", B), ("N", N), ("D", D), ("K", K)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise NoKernel(f"{name} = {v!r}: sizes must be integers >= 1")
        for name, count in (("x", B * N * D), ("c", B * K * D)):
            if count > MAX_ELEMENTS:
                raise NoKernel(f"B={B} N={N} D={D} K={K}: {name} would hold {count} elements, more than "
                               f"the kernels address (2^62)")
        if dtype not in self._by_dtype:
            raise NoKernel(f"dtype {dtype!r}: this library serves {', '.join(sorted(self._by_dtype))}")
        out, widest = [], 0
        # The groups share ~100 distinct constraints and a few launch sizes (one per staging and
        # alignment): each constraint is evaluated once per distinct sizes.
        sizes_of, holds = {}, {}
        for (max_d, d_align, staging, constraints), members in self._by_dtype[dtype].items():
            width = max_d if max_d is not None else math.inf
            widest = max(widest, width)
            if round_up(D, d_align) > width:
                continue
            if (staging, d_align) not in sizes_of:
                sizes = launch_sizes(members[0], B, N, D, K)
                sizes_of[(staging, d_align)] = (sizes, tuple(sizes.items()))
            sizes, skey = sizes_of[(staging, d_align)]
            for c in constraints:
                r = holds.get((c, skey))
                if r is None:
                    r = holds[(c, skey)] = bool(expr.evaluate(c, sizes))
                if not r:
                    break
            else:
                out.extend(members)
        if not out:
            raise NoKernel(f"B={B} N={N} D={D} K={K} dtype={dtype}: no kernel serves it "
                           f"(the widest {dtype} kernel takes D <= {widest})")
        # Per configuration: its smallest D class that covers D (a configuration's classes
        # differ only in the columns they compute: the narrowest is never slower).
        least = {}
        for v in out:
            if v["max_d"] is not None:
                least[v["config"]] = min(least.get(v["config"], v["max_d"]), v["max_d"])
        return [v for v in out if v["max_d"] is None or v["max_d"] == least[v["config"]]]

    def route(self, B, N, D, K, dtype):
        """{"kernel", "config", "sizes", "basis"}; raises NoKernel naming why none serves.
        Remembered per shape: a dispatcher routes the same few shapes again and again."""
        key = (B, N, D, K, dtype)
        hit = self._routes.get(key)
        if hit is None:
            if len(self._routes) > 4096:
                self._routes.clear()
                self._judged.clear()
            hit = self._routes[key] = self._route(B, N, D, K, dtype)
        return hit

    def _representatives(self, point, picks):
        """{group: the time that stands for picks[group] at a measured point}: its member of the
        widest width not above the pick's, else its narrowest member, slowed by
        WIDTH_HALVING_COST for each halving between them."""
        below, above = {}, {}
        for cfg, ms in point["ms"].items():
            g, width = self.width_group.get(cfg, (None, 0))
            if g not in picks or cfg in self.own_points_only:
                continue
            if width <= picks[g][0]:
                if g not in below or width > below[g][0]:
                    below[g] = (width, ms)
            elif g not in above or width < above[g][0]:
                above[g] = (width, ms)
        out = {g: ms for g, (_, ms) in below.items()}
        for g, (width, ms) in above.items():
            if g not in out:
                out[g] = ms * WIDTH_HALVING_COST ** math.log2(width / max(picks[g][0], 1))
        return out

    def ranking(self, B, N, D, K, dtype):
        """[(configuration, estimated time relative to the best)], best first: how _route scores
        a shape's legal configurations (outside the table, one per load-width group, 64-bit
        builds). Empty when no measured point is near."""
        by_config = {v["config"]: v for v in self.legal(B, N, D, K, dtype)}
        _, _, score, seen = self._scores(B, N, D, K, dtype, by_config)
        return sorted(((c, math.exp(score[c] / seen[c])) for c in score), key=lambda e: (e[1], e[0]))

    def _route(self, B, N, D, K, dtype):
        legal = self.legal(B, N, D, K, dtype)
        by_config = {v["config"]: v for v in legal}
        exact, near, score, seen = self._scores(B, N, D, K, dtype, by_config)
        self._judged[(B, N, D, K, dtype)] = (by_config, exact, score, seen)
        if score:
            cfg = min(score, key=lambda c: (score[c] / seen[c], c))
            basis = {"neighbours": [[p["B"], p["N"], p["D"], p["K"]] for _, p in near],
                     "relative_time": round(math.exp(score[cfg] / seen[cfg]), 4)}
        else:
            cfg = DEFAULT_CONFIG if DEFAULT_CONFIG in by_config else SMALL_DEFAULT
            basis = {"default": "no measured neighbour"}
            if cfg not in by_config:
                raise NoKernel(f"B={B} N={N} D={D} K={K} dtype={dtype}: no measured neighbour and no "
                               f"default kernel ({DEFAULT_CONFIG}, {SMALL_DEFAULT}) serves it")
        cfg = self._twin(cfg, by_config, exact)
        v = by_config[cfg]
        return {"kernel": v["name"], "config": cfg,
                "sizes": launch_sizes(v, B, N, D, K), "basis": basis}

    def _twin(self, cfg, by_config, exact):
        """Outside the table, the configuration's 32-bit twin where it is legal and preferred."""
        if not exact and self.twin_preferred.get(cfg) and cfg + TWIN_SUFFIX in by_config:
            return cfg + TWIN_SUFFIX
        return cfg

    def candidates(self, B, N, D, K, dtype, count):
        """Up to `count` kernels for a shape, best-ranked first, each as route() answers it
        ({"kernel", "config", "sizes"}); the first is route()'s own choice. What an autotuning
        caller times on the shape's first call (autotune.py). A shape of the table has its own
        measurements: its choice alone. Raises NoKernel as route() does."""
        first = self.route(B, N, D, K, dtype)
        by_config, exact, score, seen = self._judged[(B, N, D, K, dtype)]
        out = [{k: first[k] for k in ("kernel", "config", "sizes")}]
        if exact:
            return out
        for cfg in sorted(score, key=lambda c: (score[c] / seen[c], c)):
            if len(out) >= count:
                break
            cfg = self._twin(cfg, by_config, exact)
            if all(r["config"] != cfg for r in out):
                v = by_config[cfg]
                out.append({"kernel": v["name"], "config": cfg, "sizes": launch_sizes(v, B, N, D, K)})
        return out

    def nearest(self, B, N, D, K, dtype):
        """[(squared distance, point)] of the table's points of the dtype and its kin, nearest
        first: (log B, log N, log K, log D), kindred dtypes DTYPE_DISTANCE farther."""
        q = _features({"B": B, "N": N, "K": K, "D": D})
        return sorted(((sum((a - b) ** 2 for a, b in zip(_features(p), q)) + dtype_distance(dtype, p["dtype"]), p)
                       for p in self.points if dtype_distance(dtype, p["dtype"]) is not None),
                      key=lambda e: e[0])

    def _scores(self, B, N, D, K, dtype, by_config):
        """(exact, near, score, seen): whether the shape is a point of the table, the points
        that judge it, and per scored configuration the weighted sum of its log time relative to
        each point's best and the sum of the weights."""
        near = self.nearest(B, N, D, K, dtype)
        # A measured shape is served by its own measurements alone (its fastest legal
        # configuration); the neighbours' weighting is tuned for shapes nobody measured.
        exact = bool(near) and near[0][0] == 0
        near = near[:1] if exact else near[:self.neighbours]
        # Outside the table: 64-bit configurations only (their twins' times are biased, above),
        # and no table-only one.
        scored = by_config if exact else {c: v for c, v in by_config.items() if c not in self.own_points_only}
        score, seen = {}, {}
        if exact:                  # the shape's own times
            own = near[0][1]["ms"]
            best = min(own.values())
            score = {cfg: math.log(ms / best) for cfg, ms in own.items() if cfg in scored}
            seen = dict.fromkeys(score, 1.0)
        else:
            # Per group of configurations that differ only in load width: the shape's widest
            # legal one, scored at each neighbour by the neighbour's measured member of the widest
            # width not above it (an odd D takes v = 1 where its neighbours measured v = 8 too;
            # an aligned D is not judged by the v = 1 its odd neighbours could only measure).
            picks = {}
            for cfg in scored:
                g, width = self.width_group.get(cfg, (cfg, 0))
                if g not in picks or width > picks[g][0]:
                    picks[g] = (width, cfg)
            for dist, p in near:
                best = min(p["ms"].values())
                weight = 1.0 / (dist + DISTANCE_SOFTENING)
                for g, ms in self._representatives(p, picks).items():
                    cfg = picks[g][1]
                    score[cfg] = score.get(cfg, 0.0) + weight * math.log(ms / best)
                    seen[cfg] = seen.get(cfg, 0.0) + weight
        return exact, near, score, seen
