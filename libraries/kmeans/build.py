#!/usr/bin/env python3
"""Builds the KMeans library folder: every variant's IR, cubin and manifest, and library.json.

    python3 libraries/kmeans/build.py --out DIR [--tools build/bin]
        [--jobs 2] [--dtypes float16,bfloat16,float32] [--max-chunks 8] [--table table.json]
        [--keep-built]

For each dtype: the `simt` family (any D; 2, 4, 8 or 16 points per block), the `direct` family
(D classes 16/64/128/256, one launch, no staging; 8 or 32 centroids per tile), the `splitd` family
(any D, streamed in groups of 1 or 2 chunks; bk 16/128/256; 1 or 2 consumer warpgroups; persistent or
per tile), the `mma` family (D classes of 32 up to 256; fp16/bf16), and for each D class
(1..max-chunks column chunks) of the `wgmma` family the searched configurations: the tile
of centroids (bk 16/32/64/128/256), the consumer warpgroups (1 or 2) and the grid style (persistent or
one block per tile), each with the deepest pipelines that fit in shared memory, and each also with its
last chunk trimmed to 1, 2 or 3 of its 4 wgmma k-steps (`tail`: finer D classes of the same
configuration, 2196 more kernels; 1.072x on the 67 tuned grid shapes they serve, none slower:
bench/results/2026-12-04-library-kmeans-13; `--no-tails` leaves them out), and the `ra` tiles of two
consumer warpgroups (A fragments in registers, table-only: RA_CONFIGS; `--ov` adds the overlapped
`ov` experiment, OV_CONFIGS). Every variant is
verified (cake-opt --cake-verify) and compiled by cake-translate; one that fails stops the build with the
tool's diagnostic. Besides: the centroid-update kernels (`update`), the new centroids from
their sums and counts (`centroids`, one per dtype) and one staging kernel per
dtype (`pad`: rows zero-padded to 16 bytes for the tensor-core families), and the split-K
variants of wgmma and splitd (SPLIT_K_CONFIGS) with their `finish` kernel, and the |c|^2
kernels of each dtype (`csq`, 1, 4 and 32 lanes per row: the dispatcher's when the caller passes
no c_sq). `--table` (default:
table.json beside this script, when present) is the routing table learned from measurements
(libraries/README.md).

`--specialize FILE` also builds variants with problem sizes fixed at compile time (`<name>_xd10...`,
`specialize = {D = 10}` on the kernel: its loops, masks and strides fold, and its manifest requires
those sizes); they are table-only.

Every kernel but the updates, the new centroids, the finish and |c|^2 is built twice: with a 64-bit `index` (any
shape) and as its 32-bit twin (`<name>_i32`, configuration `<config>_i32`: the same IR with `index_bitwidth = 32` on the
kernel, whose manifest bounds the shapes it serves); the router decides per shape which width
runs (route.py).
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import family  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "runtime"))
from cake_library.route import TWIN_SUFFIX  # noqa: E402

CONFIGS = [(bk, wg, grid) for grid in ("persistent", "tiles") for wg in (2, 1)
           for bk in (128, 256, 64, 32, 16)]


# The 32-bit twin (module docstring) is a configuration of its own, named with the router's
# suffix: measurements decide where it wins (session 24: 1.06x geomean on the table's best per
# shape, 1.19x for wgmma, 0.96x for simt).
INDEX_SUFFIX = TWIN_SUFFIX


def index_bits(p):
    return p.get("index_bits", 64)


def twin_legal(p):
    """Whether the variant gets a 32-bit twin: every family but the updates, the new
    centroids, the split-K finish and |c|^2. (The wgmma kernels
    with two consumer warpgroups over one x stage need the compiler's workaround for a ptxas
    miscompile, in wgmmaDescriptor: bench/results/2026-12-04-library-kmeans-9, README.)"""
    return family.FAMILIES[family_of(p)].twins


def with_twins(variants):
    """The variants followed by the 32-bit twins of those that get one."""
    return variants + [dict(p, index_bits=32) for p in variants if twin_legal(p)]


def family_of(p):
    return family.family_of(p)


def config_name(p):
    """The name the table and the router know a configuration by. An evolved one (evolved()) is
    named after its kernel: the families' configuration names leave out the parameters the plan
    derives (stages, buffers), which evolution changes, so it would share its name with a planned
    configuration and the table could not tell their times apart."""
    if p.get("evolved"):
        return "evo_" + kernel_stem(p)
    return family.FAMILIES[family_of(p)].config(p) + (INDEX_SUFFIX if index_bits(p) == 32 else "") \
        + specialized_suffix(p)


def variant_name(p):
    return family.FAMILIES[family_of(p)].symbol(p) + (INDEX_SUFFIX if index_bits(p) == 32 else "") \
        + specialized_suffix(p)


def specialized_suffix(p):
    """`_xd10k95` for a variant built with D = 10 and K = 95 fixed at compile time (the kernel's
    `specialize`; its manifest then requires those sizes); "" for a generic one."""
    sizes = p.get("specialize") or {}
    return "_x" + "".join(f"{k.lower()}{sizes[k]}" for k in sorted(sizes)) if sizes else ""


def with_kernel_attribute(text, old_name, new_name, attribute):
    """The IR of one kernel renamed from `old_name` to `new_name`, with `attribute` (text such as
    `index_bitwidth = 32 : i64`) first in its attribute dictionary."""
    old = "@" + old_name + "("
    at = text.find(old)
    attrs = text.find("attributes {", at)
    if text.count(old) != 1 or attrs < 0:
        raise RuntimeError(f"{new_name}: expected one kernel @{old_name} with attributes in its IR")
    attrs += len("attributes {")
    text = text[:attrs] + attribute + ", " + text[attrs:]
    return text.replace(old, "@" + new_name + "(")


def kernel_stem(p):
    """The variant's name less its `km_<dtype>_` prefix."""
    return variant_name(p).split("_", 2)[2]


def generate(p, tools=None):
    """The variant's CAKE IR. The mma family is its seed rewritten by cake-opt's tensorize tactic,
    so it needs the tools' folder. A 32-bit twin is its 64-bit variant's IR under its own name,
    with `index_bitwidth = 32` on the kernel (the IR says how it is lowered); a specialized
    variant, its generic variant's IR with `specialize = {...}`."""
    if p.get("specialize"):
        base = {k: v for k, v in p.items() if k != "specialize"}
        sizes = ", ".join(f"{k} = {v} : i64" for k, v in sorted(p["specialize"].items()))
        return with_kernel_attribute(generate(base, tools), variant_name(base), variant_name(p),
                                     "specialize = {" + sizes + "}")
    if index_bits(p) == 32:
        base = {k: v for k, v in p.items() if k != "index_bits"}
        return with_kernel_attribute(generate(base, tools), variant_name(base), variant_name(p),
                                     "index_bitwidth = 32 : i64")
    if family_of(p) == "mma":
        r = subprocess.run([os.path.join(tools, "cake-opt"), "-", "--pass-pipeline=" + family.mma_tactic(p)],
                           input=family.generate_mma_seed(p), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{variant_name(p)}: the tensorize tactic failed:\n{r.stderr[-1500:]}")
        return f"// Generated by libraries/kmeans/family.py + {family.mma_tactic(p)}: {p}\n" + r.stdout
    return family.FAMILIES[family_of(p)].generate(p)


def describe(p, manifest):
    """The variant's entry in library.json: what the router needs to know about it."""
    f = family_of(p)
    fam = family.FAMILIES[f]
    return {"name": variant_name(p), "family": f, "dtype": p["dtype"], "max_d": fam.widest(p),
            "d_align": 1 if fam.staging == "none" else family.d_align(p["dtype"]),
            "staging": fam.staging, "config": config_name(p), "params": p, "index_bits": index_bits(p),
            "constraints": manifest.get("constraints", []) + fam.domain(p), "manifest": manifest,
            **({"table_only": True} if fam.table_only(p) or p.get("specialize") else {})}


def deepest(dtype, chunks, bk, wg, grid, ra=False, ov=False, ks=None):
    """The variant with the most pipeline stages that fits, or None. With `ra` the point stage is
    released as soon as its fragments are in registers, so one stage suffices and the shared
    memory goes to centroid stages (so with split-K `ks`, whose blocks mostly run one point
    tile); `ov` consumes centroid stages in pairs, so four come first."""
    if ra or ks:
        stages = ((1, 4), (1, 3), (1, 2))
    elif ov:
        stages = ((2, 4), (1, 4), (2, 3), (1, 3), (2, 2), (1, 2))
    else:
        stages = ((2, 4), (2, 3), (2, 2), (1, 4), (1, 3), (1, 2))
    for xs, cs in stages:
        p = {"dtype": dtype, "chunks": chunks, "bk": bk, "wg": wg, "xs": xs, "cs": cs, "grid": grid,
             **({"ra": True} if ra else {}), **({"ov": True} if ov else {}), **({"ks": ks} if ks else {})}
        if family.legal(p):
            return p
    return None


# The A-in-registers configurations (wgmma.py `ra`): the large tiles of two consumer warpgroups,
# where shared-memory bandwidth bounds the wgmma chain. Then the overlapped ones (`ov`: a tile's
# argmin under the next tile's chain; two accumulators, so bk <= 128), fp16 and bf16, with and
# without `ra`: (bk, wg, grid, ra, ov, dtypes). `ov` is an experiment, built only with --ov: it
# was slower at all 44 shapes it was tuned at (0.59-0.99x, geomean 0.80; the two consumer
# warpgroups already hide each other's argmin, and bk 128 halves the tile;
# bench/results/2026-12-06-library-kmeans-18).
RA_CONFIGS = [(bk, 2, grid, True, False, None) for grid in ("persistent", "tiles") for bk in (64, 128, 256)]
OV_CONFIGS = [(bk, 2, grid, ra, True, ("float16", "bfloat16")) for grid in ("persistent", "tiles")
              for bk, ra in ((128, False), (64, False), (64, True))]
# Three consumer warpgroups (192-point tiles; table-only, fp16 and bf16): a point tile reads each
# centroid tile from L2 for 192 points instead of 128. Tuned at the 17 points whose fastest
# configuration was a wgmma tile (bench/results/2026-12-07-wgmma-w3): fastest at bf16 B5 N165512
# D71 K331 (1.22x) and fp16 B5 N105510 D36 K4708 (1.06x), 0.64-0.99x elsewhere (the 492 TFLOP/s
# row included: L2 was not its bound). Shared memory leaves them D classes of up to 5 chunks.
WG3_CONFIGS = [(bk, 3, grid, False, False, ("float16", "bfloat16"))
               for grid in ("persistent", "tiles") for bk in (64, 128)]


def deepest_splitd(dtype, g, bk, wg, grid, ks=None):
    """The splitd variant with the most pipeline stages (4, 3 or 2) that fits, or None."""
    for st in (4, 3, 2):
        p = {"dtype": dtype, "g": g, "bk": bk, "wg": wg, "st": st, "grid": grid, **({"ks": ks} if ks else {})}
        if family.splitd_legal(p):
            return p
    return None


# Split-K (tma.py's split_k: work items of a point tile and `ks` centroid tiles, argmins merged
# by atomic minimums, then the finish kernel), for few point tiles and many centroids, where the
# unsplit kernels run a handful of blocks (the wide-D few-point shapes streamed centroids at
# 0.1-0.4 TB/s): one consumer warpgroup (64-point tiles), one block per item; (bk, ks). The
# narrowest tiles of one span (k32_ks1, sd*_k64_ks1) came after session 39's tune found the
# narrowest tried (k64_ks1, sd*_k128_ks1) fastest at 54 of its 89 split-K wins.
SPLIT_K_CONFIGS = [(bk, ks) for bk in (64, 128, 256) for ks in (1, 4)] + [(32, 1)]
SPLITD_SPLIT_K_CONFIGS = [(g, bk, ks) for g in (1, 2) for bk in (128, 256) for ks in (1, 4)] + \
    [(g, 64, 1) for g in (1, 2)]


def split_k_variants(dtypes, max_chunks):
    out = []
    for dtype in dtypes:
        for chunks in range(1, max_chunks + 1):
            for bk, ks in SPLIT_K_CONFIGS:
                p = deepest(dtype, chunks, bk, 1, "tiles", ks=ks)
                if p:
                    out.append(p)
        for g, bk, ks in SPLITD_SPLIT_K_CONFIGS:
            p = deepest_splitd(dtype, g, bk, 1, "tiles", ks)
            if p:
                out.append(p)
    return out


EVOLVED = os.path.join(HERE, "evolved.json")


def evolved(dtypes, path=EVOLVED):
    """The configurations evolution per bucket found (evolve.py, `cake library winners --emit`):
    parameters of the searched families that the plan does not hold, built like the rest.
    `path` None: none (the swept plan alone)."""
    if not path or not os.path.isfile(path):
        return []
    with open(path) as f:
        return [evolved_params(e) for e in json.load(f)["configs"] if e["params"]["dtype"] in dtypes]


def evolved_params(entry):
    """An evolved.json entry's parameters as the plan holds them: marked, for config_name."""
    return dict(entry["params"], evolved=True)


def plan(dtypes, max_chunks, flat_tcd=False, tails=True, ov=False, evolved_path=EVOLVED, staged_x=False):
    out = _swept(dtypes, max_chunks, flat_tcd, tails, ov, staged_x)
    names = {variant_name(p) for p in out}
    return out + [p for p in evolved(dtypes, evolved_path) if variant_name(p) not in names]


def planned(args, dtypes):
    """The assignment variants (with their 32-bit twins) the command line's plan holds."""
    return with_twins(plan(dtypes, args.max_chunks, args.flat_tcd, args.tails, args.ov, args.evolved, args.staged_x))


def _swept(dtypes, max_chunks, flat_tcd, tails, ov, staged_x):
    """The configurations the tune phase sweeps."""
    out = list(family.simt_variants(dtypes)) + family.direct_variants(dtypes) + family.lanes_variants(dtypes) \
        + family.tcd_variants(dtypes, flat=flat_tcd, staged_x=staged_x) + family.cpw_variants(dtypes)
    for dtype in dtypes:
        if dtype != "float32":
            out += [{"dtype": dtype, "dp": dp, "rows": rows, "tile": tile} for dp in family.MMA_DP
                    for rows, tile in ((16, 64), (16, 128), (32, 64))]
    for dtype in dtypes:
        for g, bk, wg, grid in itertools.product((1, 2), (128, 256, 16), (2, 1), ("persistent", "tiles")):
            p = deepest_splitd(dtype, g, bk, wg, grid)
            if p:
                out.append(p)
    for dtype in dtypes:
        for chunks in range(1, max_chunks + 1):
            configs = [c + (False, False, None) for c in CONFIGS] + RA_CONFIGS + WG3_CONFIGS \
                + (OV_CONFIGS if ov else [])
            for bk, wg, grid, ra, overlap, only in configs:
                p = deepest(dtype, chunks, bk, wg, grid, ra, overlap) if not only or dtype in only else None
                if p:
                    # The full class, then its trimmed ones (wgmma.py: `tail`), same stages.
                    steps = family.steps_per_chunk(dtype) if tails else 1
                    out += [p] + [dict(p, tail=t) for t in range(1, steps) if family.legal(dict(p, tail=t))]
    return out + split_k_variants(dtypes, max_chunks)


OUTPUT_SUFFIXES = (".cubin", ".json", ".ptxas.log")


def current_ir(tools, kdir, name, keep_built=False):
    """The IR the folder's outputs of this variant were built from, when they are current: built
    by tools no newer than them (a rebuild after a change to one family then compiles only that
    family); else None. `keep_built`: any outputs of the same IR count (after a change to the
    tools that does not touch code generation: otherwise every variant, about 9,000, is compiled
    again, an hour on 2 cores)."""
    src, outs = os.path.join(kdir, name + ".mlir"), [os.path.join(kdir, name + e) for e in (".cubin", ".json")]
    try:
        with open(src) as f:
            text = f.read()
        built = min(os.path.getmtime(o) for o in outs)
        inputs = [src] + [os.path.join(tools, t) for t in ("cake-opt", "cake-translate")]
        return text if keep_built or all(os.path.getmtime(i) <= built for i in inputs) else None
    except OSError:
        return None


def up_to_date(tools, kdir, name, text, keep_built=False):
    """Whether the folder holds this variant built from `text` (current_ir)."""
    return current_ir(tools, kdir, name, keep_built) == text


PROGRAMMATIC_LAUNCH = "builtin.module(cake-tactic-programmatic-launch)"


def with_programmatic_launch(text, tools):
    """The IR with cake-opt's programmatic-launch tactic applied: each kernel may start while the
    stream's previous kernel finishes (its manifest says so and the dispatcher launches it so)."""
    # Without the op printed beside a diagnostic: the verifier's message is what the tail keeps.
    r = subprocess.run([os.path.join(tools, "cake-opt"), "-", "--pass-pipeline=" + PROGRAMMATIC_LAUNCH,
                        "--mlir-print-op-on-diagnostic=false"],
                       input=text, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"the programmatic-launch tactic failed:\n{r.stderr[-1500:]}")
    return r.stdout


def kernel_ir(p, tools, programmatic_launch=True):
    """The IR the library compiles for `p`: generate()'s, with the programmatic-launch tactic."""
    text = generate(p, tools)
    return with_programmatic_launch(text, tools) if programmatic_launch else text


def compile_one(tools, kdir, p, programmatic_launch=True, keep_built=False):
    name = variant_name(p)
    src = os.path.join(kdir, name + ".mlir")
    try:
        text = kernel_ir(p, tools, programmatic_launch)
    except RuntimeError as e:
        return p, 1, f"{name}: {e}"
    if up_to_date(tools, kdir, name, text, keep_built):
        return p, 0, ""
    with open(src, "w") as f:
        f.write(text)
    return (p,) + compile_ir(tools, src, kdir, name)


def compile_ir(tools, src, outdir, name):
    """(exit status, stderr): the IR file verified, then its cubin, manifest and ptxas log
    written to `outdir` as name.cubin, name.json, name.ptxas.log."""
    r = subprocess.run([os.path.join(tools, "cake-opt"), src, "--cake-verify", "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return r.returncode, r.stderr
    out = [os.path.join(outdir, name + s) for s in OUTPUT_SUFFIXES]
    r = subprocess.run([os.path.join(tools, "cake-translate"), src, "--emit=cubin", "-o", out[0],
                        "--manifest", out[1], "--ptxas-log", out[2]], capture_output=True, text=True)
    return r.returncode, r.stderr


def compile_elsewhere(tools, p, programmatic_launch, current):
    """compile_one for a machine without the library folder (build.py --ray: cluster.py):
    (p, exit status, stderr, IR text, {suffix: bytes} or None). `current`: the IR the folder's
    outputs were built from (current_ir); the same IR now means nothing to compile (None)."""
    name = variant_name(p)
    try:
        text = kernel_ir(p, tools, programmatic_launch)
    except RuntimeError as e:
        return p, 1, f"{name}: {e}", None, None
    if text == current:
        return p, 0, "", text, None
    with tempfile.TemporaryDirectory(prefix="cake-build-") as d:
        src = os.path.join(d, name + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        rc, err = compile_ir(tools, src, d, name)
        files = {}
        for s in OUTPUT_SUFFIXES:
            if os.path.exists(os.path.join(d, name + s)):
                with open(os.path.join(d, name + s), "rb") as f:
                    files[s] = f.read()
    return p, rc, err, text, files


def compile_all(args, kdir, todo):
    """Compiles `todo` in args.jobs threads, or on a Ray cluster's CPUs with --ray (cluster.py):
    ([(parameters, manifest)], [failure messages])."""
    if getattr(args, "ray", None):
        import cluster
        return collect(kdir, cluster.compile_all(args, kdir, todo))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        return collect(kdir, pool.map(lambda p: compile_one(args.tools, kdir, p, args.programmatic_launch,
                                                            args.keep_built), todo))


def collect(kdir, results):
    """([(parameters, manifest)], [failure messages]) of compiles' (parameters, exit status,
    stderr), the manifests read from the folder."""
    built, failed = [], []
    for p, rc, err in results:
        if rc != 0:
            failed.append(f"build.py: {variant_name(p)} failed:\n{err.strip()[-2000:]}")
            continue
        with open(os.path.join(kdir, variant_name(p) + ".json")) as f:
            built.append((p, json.load(f)["kernels"][0]))
    return built, failed


def auxiliary_plans(dtypes):
    """The kernels the router does not route (families/registry.py's `listed` ones), to build."""
    return [q for fam in family.FAMILIES.values() if fam.listed for q in fam.plan(dtypes)]


def library_entries(built):
    """(routed variants' entries, {library.json list: entries of the listed kernels}) of built
    (parameters, manifest) pairs, each sorted by name, the lists in the registry's order."""
    variants = []
    lists = {fam.listed: [] for fam in family.FAMILIES.values() if fam.listed}
    for p, manifest in built:
        fam = family.FAMILIES[family_of(p)]
        if fam.listed:
            lists[fam.listed].append(fam.record(p, variant_name(p), manifest))
        else:
            variants.append(describe(p, manifest))

    def by_name(entries):
        return sorted(entries, key=lambda v: v["name"])
    return by_name(variants), {k: by_name(v) for k, v in lists.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--tools", default=os.path.join(HERE, "..", "..", "build", "bin"),
                    help="folder holding cake-opt and cake-translate")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ray", metavar="ADDRESS", default="",
                    help="compile on a Ray cluster's CPUs instead of --jobs threads (cluster.py): 'local' "
                         "starts one on this machine, 'auto' or ray://HOST:PORT joins one; every node needs "
                         "cake-opt and cake-translate at --tools; the outputs come back to --out")
    ap.add_argument("--dtypes", default="float16,bfloat16,float32")
    ap.add_argument("--max-chunks", type=int, default=8)
    ap.add_argument("--table", default=os.path.join(HERE, "table.json"))
    ap.add_argument("--flat-tcd", action="store_true",
                    help="also the tcd `fl` configurations (x and c as flat arrays; an experiment, slower: "
                         "bench/results/2026-12-04-library-kmeans-11)")
    ap.add_argument("--ov", action="store_true",
                    help="also the wgmma family's overlapped `ov` variants (an experiment: slower)")
    ap.add_argument("--staged-x", action="store_true",
                    help="also the tcd resident-centroid configurations with x staged through shared "
                         "memory (`stx`; an experiment for odd D: bench/results/2026-12-07-odd-d-loads)")
    ap.add_argument("--no-tails", dest="tails", action="store_false",
                    help="without the wgmma family's trimmed D classes (the library before build 13: "
                         "bench/results/2026-12-04-library-kmeans-13)")
    ap.add_argument("--keep-built", action="store_true",
                    help="keep a variant's outputs when its IR is unchanged, even if the tools are newer")
    ap.add_argument("--no-programmatic-launch", dest="programmatic_launch", action="store_false",
                    help="build the kernels without cake-tactic-programmatic-launch")
    ap.add_argument("--evolved", default=EVOLVED, help="the evolved configurations the plan adds (evolved.json)")
    ap.add_argument("--variants", default=os.path.join(HERE, "variants.json"),
                    help="--update-variants: the variants.json to update")
    ap.add_argument("--subset", default="",
                    help="a JSON list of variant names (bench/library/needed_variants.py): build only those "
                         "assignment kernels (and every auxiliary one) into a library that lists just them: "
                         "what one GPU call launches, in minutes instead of the whole library's hour")
    ap.add_argument("--specialize", default="",
                    help="a JSON list of {\"variant\": name, \"sizes\": {\"D\": 10, ...}}: also build those "
                         "variants with the sizes fixed at compile time (the kernel's `specialize`; named "
                         "<variant>_xd10..., table-only: they serve the table points that measured them)")
    ap.add_argument("--update-variants", action="store_true",
                    help="compile only the planned configurations missing from the committed variants.json "
                         "(those evolved.json added) into --out and update variants.json, instead of a "
                         "whole library (minutes instead of an hour)")
    args = ap.parse_args()
    dtypes = [d for d in args.dtypes.split(",") if d]
    bad = [d for d in dtypes if d not in family.DTYPES]
    if bad or args.jobs < 1 or args.max_chunks < 1:
        print(f"build.py: bad arguments (unknown dtypes {bad}, jobs {args.jobs}, max-chunks "
              f"{args.max_chunks}); dtypes are {', '.join(family.DTYPES)}", file=sys.stderr)
        sys.exit(2)
    kdir = os.path.join(args.out, "kernels")
    os.makedirs(kdir, exist_ok=True)
    if args.update_variants:
        sys.exit(refresh_variants_json(args, dtypes, kdir))
    assignment = planned(args, dtypes)
    if args.subset:
        try:
            with open(args.subset) as f:
                wanted = set(json.load(f))
        except (OSError, ValueError, TypeError) as e:
            print(f"build.py: --subset {args.subset}: not a JSON list of variant names ({e})", file=sys.stderr)
            sys.exit(2)
        unknown = wanted - {variant_name(p) for p in assignment}
        if unknown:
            print(f"build.py: --subset names {len(unknown)} variants the plan does not have (first: "
                  f"{sorted(unknown)[0]})", file=sys.stderr)
            sys.exit(2)
        assignment = [p for p in assignment if variant_name(p) in wanted]
    if args.specialize:
        extra = specialized(args.specialize, planned(args, dtypes))
        if isinstance(extra, str):
            print(f"build.py: --specialize {args.specialize}: {extra}", file=sys.stderr)
            sys.exit(2)
        assignment += extra
    todo = assignment + with_twins(auxiliary_plans(dtypes))
    built, failed = compile_all(args, kdir, todo)
    if failed:
        print("\n".join(failed), file=sys.stderr)
        sys.exit(1)
    variants, lists = library_entries(built)
    table = {}
    if args.table and os.path.exists(args.table):
        with open(args.table) as f:
            table = json.load(f)
    with open(os.path.join(args.out, "library.json"), "w") as f:
        json.dump({"op": "kmeans_assign", "family": "libraries/kmeans/family.py",
                   "variants": variants, "table": table, **lists}, f, indent=1)
    # What routing needs, without the manifests: the definition folder commits this file so
    # that `cake library route` answers from the definition without building anything.
    with open(os.path.join(args.out, "variants.json"), "w") as f:
        json.dump({"op": "kmeans_assign", "variants": [
            {k: v for k, v in x.items() if k != "manifest"} for x in variants]}, f, indent=0)
    listed = ", ".join(f"{len(v)} {k.removesuffix('_variants')}" for k, v in lists.items())
    print(f"build.py: {len(variants)} assignment kernels and {listed} kernels in {kdir}")


def specialized(path, plan_now):
    """The specialized variants a --specialize file asks for (parameters), or why it is refused."""
    try:
        with open(path) as f:
            wanted = json.load(f)
        requests = [(w["variant"], w["sizes"]) for w in wanted]
    except (OSError, ValueError, KeyError, TypeError) as e:
        return f"not a JSON list of {{\"variant\", \"sizes\"}} ({type(e).__name__}: {e})"
    by_name = {variant_name(p): p for p in plan_now}
    out = []
    for name, sizes in requests:
        if name not in by_name:
            return f"the plan has no variant {name}"
        if not isinstance(sizes, dict) or not sizes or not all(
                isinstance(k, str) and k.isidentifier() and type(v) is int and v >= 0 for k, v in sizes.items()):
            return f"{name}: sizes must map symbols to non-negative integers, got {sizes!r}"
        out.append(dict(by_name[name], specialize=dict(sizes)))
    return out


def refresh_variants_json(args, dtypes, kdir):
    """Brings the committed variants.json to the plan without building the library: compiles the
    planned configurations it lacks (evolved.json's) and drops those no longer planned."""
    path = args.variants
    try:
        with open(path) as f:
            data = json.load(f)
        [v["name"] for v in data["variants"]]          # a list of named variants
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"build.py: --variants {path}: not a variants.json ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    plan_now = planned(args, dtypes)
    names = {variant_name(p) for p in plan_now}
    have = {v["name"] for v in data["variants"]}
    todo = [p for p in plan_now if variant_name(p) not in have]
    built, failed = compile_all(args, kdir, todo)
    added = [{k: v for k, v in describe(p, manifest).items() if k != "manifest"} for p, manifest in built]
    if failed:
        print("\n".join(failed), file=sys.stderr)
        return 1
    kept = [v for v in data["variants"] if v["name"] in names or v["dtype"] not in dtypes]
    # A kept variant's name and parameters as the plan has them now (an evolved one's configuration
    # name; nothing compiled changes).
    by_name, renamed = {variant_name(p): p for p in plan_now}, 0
    for v in kept:
        p = by_name.get(v["name"])
        if p is not None and (v["config"], v["params"]) != (config_name(p), p):
            v["config"], v["params"], renamed = config_name(p), p, renamed + 1
    data["variants"] = sorted(kept + added, key=lambda v: v["name"])
    with open(path, "w") as f:
        json.dump(data, f, indent=0)
    print(f"build.py: variants.json: {len(added)} added, {renamed} renamed, {len(have) - len(kept)} dropped")
    return 0


if __name__ == "__main__":
    main()
