"""``cake library build|route|report|export``: kernel libraries served by a router (libraries/README.md).

    cake library build  --definition libraries/kmeans --out DIR [--bin build/bin] [--jobs 2]
    cake library route  --library DIR --shape B=3,N=75599,D=96,K=999,dtype=float16
    cake library route  --library KDA_DIR --shape T=8192,H=96,N=1[,lower_bound=-5]
    cake library report --rows rows.json --out report.html
    cake library export --library DIR --out PACKAGE
    cake library evolve --definition libraries/kmeans --db lib.db --work DIR [--backend batch]
    cake library evolve-ingest --db lib.db --work DIR; cake library winners --db lib.db

`route` answers from a definition folder (variants.json + table.json), a built library
(library.json) or an exported package alike: one JSON object with at least {"kernel"}, exit 0;
exit 2 with one line naming why no kernel serves the shape. Exit codes as the rest of ``cake``:
2 bad arguments or library, 4 a tool is missing.
"""
import argparse
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNTIME = os.path.join(_ROOT, "libraries", "runtime", "cake_library")
sys.path.insert(0, os.path.dirname(RUNTIME))
from cake_library import autotune, kda as kda_runtime  # noqa: E402
from cake_library.route import NoKernel, Router, auxiliary_kernels, check_definition  # noqa: E402

from . import disk, jsonfile, library_evolve, outputs  # noqa: E402
from .task import TaskError  # noqa: E402

SHAPE_KEYS = ("B", "N", "D", "K")
DTYPES = ("float16", "bfloat16", "float32")


class LibraryError(ValueError):
    """A library folder or argument that cannot be used; the message says why."""


def load_definition(path):
    """The routing definition {"op", "variants", "table"} of a definition folder, a built library
    or an exported package, checked (LibraryError naming the file and what is wrong)."""
    for rel in ("library.json", os.path.join("cake_library", "library", "library.json")):
        f = os.path.join(path, rel)
        if os.path.isfile(f):
            return _checked(jsonfile.read(f, LibraryError), f)
    variants = os.path.join(path, "variants.json")
    if os.path.isfile(variants):
        d = jsonfile.read(variants, LibraryError)
        table = os.path.join(path, "table.json")
        if isinstance(d, dict) and os.path.isfile(table):
            _checked(dict(d, table={}), variants)   # a fault of the table names table.json
            d["table"] = jsonfile.read(table, LibraryError)
            return _checked(d, table)
        return _checked(d, variants)
    hint = (" (a KDA definition folder: build it first, cake library build --definition "
            f"{path} --out DIR)") if os.path.isfile(os.path.join(path, "rule.json")) else ""
    raise LibraryError(f"{path}: not a library (no library.json, cake_library/library/library.json "
                       f"or variants.json){hint}")


def _checked(definition, where):
    try:
        if isinstance(definition, dict) and definition.get("op") == "kda_fwd":
            kda_runtime.check_definition(definition)
        else:
            check_definition(definition)
    except ValueError as e:
        raise LibraryError(f"{where}: {e}") from None
    return definition


def _integer(text):
    """Decimal digits with an optional sign as an int; ValueError otherwise (int() would also take
    '1_0' and ' 7')."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(text)
    return int(text)


def parse_shape(text):
    """'B=3,N=75599,D=96,K=999,dtype=float16' -> dict; LibraryError naming the bad part."""
    out = {}
    for part in (text or "").split(","):
        key, eq, value = part.strip().partition("=")
        if not eq or not key:
            raise LibraryError(f"--shape: expected NAME=VALUE, got {part.strip()!r}")
        if key in out:
            raise LibraryError(f"--shape: {key} given twice")
        if key == "dtype":
            if value not in DTYPES:
                raise LibraryError(f"--shape: dtype {value!r}; expected one of {', '.join(DTYPES)}")
            out[key] = value
        elif key in SHAPE_KEYS:
            try:
                out[key] = _integer(value)
            except ValueError:
                raise LibraryError(f"--shape: {key} = {value!r} is not an integer") from None
            if out[key] < 1:
                raise LibraryError(f"--shape: {key} = {out[key]}; sizes must be at least 1")
        else:
            raise LibraryError(f"--shape: unknown name {key!r}; expected B, N, D, K and dtype")
    missing = [k for k in SHAPE_KEYS + ("dtype",) if k not in out]
    if missing:
        raise LibraryError(f"--shape: missing {', '.join(missing)}")
    return out


def parse_kda_case(text):
    """'T=8192,H=96,N=1,lower_bound=-5' -> dict (lower_bound defaults to -5); LibraryError naming
    the bad part."""
    out, given = {"lower_bound": -5.0}, set()
    for part in (text or "").split(","):
        key, eq, value = part.strip().partition("=")
        if not eq or key not in ("T", "H", "N", "lower_bound"):
            raise LibraryError("--shape: expected T=, H=, N= and optionally lower_bound=, got "
                               f"{part.strip()!r}")
        if key in given:
            raise LibraryError(f"--shape: {key} given twice")
        given.add(key)
        try:
            out[key] = float(value) if key == "lower_bound" else _integer(value)
        except ValueError:
            kind = "a number" if key == "lower_bound" else "an integer"
            raise LibraryError(f"--shape: {key} = {value!r} is not {kind}") from None
        if key != "lower_bound" and out[key] < 1:
            raise LibraryError(f"--shape: {key} = {out[key]}; sizes must be at least 1")
        if key == "lower_bound" and not math.isfinite(out[key]):
            raise LibraryError(f"--shape: lower_bound = {value!r} is not finite")
    missing = [k for k in ("T", "H", "N") if k not in out]
    if missing:
        raise LibraryError(f"--shape: missing {', '.join(missing)}")
    return out


def route_kda(definition, text):
    case = parse_kda_case(text)
    name = kda_runtime.route(definition, case["T"], case["H"], case["N"], case["lower_bound"])
    family = next(v.get("family") for v in definition["variants"] if v["name"] == name)
    print(json.dumps({"kernel": name, "family": family, "shape": case}))
    return 0


def cmd_route(args):
    definition = load_definition(args.library)
    if definition.get("op") == "kda_fwd":
        return route_kda(definition, args.shape)
    router = Router(definition)
    s = parse_shape(args.shape)
    try:
        r = router.route(s["B"], s["N"], s["D"], s["K"], s["dtype"])
    except NoKernel as e:
        raise LibraryError(str(e)) from None
    v = next(v for v in router.variants if v["name"] == r["kernel"])
    # What the Python API times on the shape's first call (autotune.py): one kernel for a shape
    # of the table.
    candidates = [c["kernel"] for c in router.candidates(s["B"], s["N"], s["D"], s["K"], s["dtype"],
                                                         autotune.DEFAULT_CANDIDATES)]
    print(json.dumps({"kernel": r["kernel"], "family": v["family"], "config": r["config"],
                      "shape": s, "sizes": r["sizes"], "basis": r["basis"],
                      "autotune_candidates": candidates}))
    return 0


def cmd_build(args):
    script = os.path.join(args.definition, "build.py")
    if not os.path.isfile(script):
        raise LibraryError(f"{args.definition}: no build.py (not a library definition folder)")
    for tool in ("cake-opt", "cake-translate"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            print(f"cake: error: {tool} not found in {args.bin} (--bin)", file=sys.stderr)
            return 4
    cmd = [sys.executable, script, "--out", args.out, "--tools", args.bin, "--jobs", str(args.jobs)]
    if args.dtypes:
        cmd += ["--dtypes", args.dtypes]
    return subprocess.call(cmd)


def cmd_export(args):
    definition = load_definition(args.library)
    kdir = os.path.join(args.library, "kernels")
    kernels = definition["variants"] + auxiliary_kernels(definition)
    # A variant is one kernel (its name) or several ("kernels": a KDA variant's passes).
    cubins = sorted({k["name"] for v in kernels for k in v.get("kernels", [v])})
    missing = [n for n in cubins if not os.path.isfile(os.path.join(kdir, n + ".cubin"))]
    if missing:
        raise LibraryError(f"{args.library}: no cubin for {len(missing)} kernels (first: "
                           f"{missing[0]}); export needs a built library (cake library build)")
    with outputs.new_folder(args.out, "--out") as out:
        native = _write_package(definition, kdir, cubins, out)
        native = native and native.replace(out, args.out)  # the folder's final name
    if native:
        print(native)
    print(f"exported {len(cubins)} kernels to {args.out}")
    return 0


def _write_package(definition, kdir, cubins, out):
    """Writes the package into the folder `out`; returns what became of the native dispatcher
    (None for a library without one)."""
    pkg = os.path.join(out, "cake_library")
    os.makedirs(os.path.join(pkg, "library", "kernels"))
    for name in sorted(os.listdir(RUNTIME)):
        if name.endswith(".py"):
            shutil.copyfile(os.path.realpath(os.path.join(RUNTIME, name)), os.path.join(pkg, name))
    for n in cubins:
        shutil.copyfile(os.path.join(kdir, n + ".cubin"), os.path.join(pkg, "library", "kernels", n + ".cubin"))
    with open(os.path.join(pkg, "library", "library.json"), "w") as f:
        json.dump(definition, f, indent=0)
    native = None
    if definition["op"] == "kda_fwd":
        readme = KDA_PACKAGE_README.format(count=len(definition["variants"]))
    else:
        native = export_native(definition, pkg)
        readme = PACKAGE_README.format(op=definition["op"], count=len(definition["variants"]))
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(readme)
    return native


DISPATCH = os.path.join(_ROOT, "libraries", "runtime", "dispatch")
CAKE_RUN = os.path.join(_ROOT, "tools", "cake-run")


def export_native(definition, pkg):
    """Writes the C++ dispatcher's sources into PKG/cake_library/dispatch_src and builds
    library/libcake_library.so when a C++ compiler and cuda.h are here. Returns what it did."""
    sys.path.insert(0, DISPATCH)
    import generate  # noqa: E402  (libraries/runtime/dispatch/generate.py)
    src = os.path.join(pkg, "dispatch_src")
    os.makedirs(src)
    for name in ("Dispatch.cpp", "PyEntry.c", "build.sh"):
        shutil.copyfile(os.path.join(DISPATCH, name), os.path.join(src, name))
    for name in ("CudaDriver.h", "CudaDriver.cpp", "CudaFunctions.def"):
        shutil.copyfile(os.path.join(CAKE_RUN, name), os.path.join(src, name))
    if any("manifest" not in v for v in definition["variants"]):
        return "native dispatcher: not generated (the library has no manifests; build it first)"
    try:
        table = generate.generate(definition)
    except (KeyError, TypeError, ValueError) as e:
        raise LibraryError(f"cannot generate the dispatcher's table: {type(e).__name__}: {e}") from None
    with open(os.path.join(src, "LibraryTable.inc"), "w") as f:
        f.write(table)
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    if not os.path.isfile(os.path.join(cuda, "include", "cuda.h")) or not shutil.which(
            os.environ.get("CXX", "c++")):
        return (f"native dispatcher: sources in {src}, not built (no C++ compiler or no "
                f"{cuda}/include/cuda.h); the package uses its Python launcher")
    out = os.path.join(pkg, "library", "libcake_library.so")
    r = subprocess.run(["sh", os.path.join(src, "build.sh"), out], capture_output=True, text=True)
    if r.returncode != 0:
        raise LibraryError(f"building the native dispatcher failed:\n{r.stderr[-2000:]}")
    entry = os.path.join(os.path.dirname(out), "_cake_native.abi3.so")
    return f"native dispatcher: {out}" + (f" (CPython entry points: {entry})" if os.path.isfile(entry)
                                           else " (called through ctypes: " + r.stdout.strip() + ")")


PACKAGE_README = """# CAKE kernel library: {op} ({count} kernels)

Exported by `cake library export`. Needs python3, torch and a CUDA driver; not LLVM/MLIR, not the
CAKE build tree. Put this folder on PYTHONPATH:

    import cake_library
    idx = cake_library.kmeans_assign(x, c)            # or (x, c, c_sq=..., out=...)
    cake_library.route(B=3, N=75599, D=96, K=999, dtype="float16")

A shape outside the routing table times the router's 8 best-ranked kernels on its first call and
keeps the fastest (one host synchronization, then no cost; CAKE_AUTOTUNE=n candidates, 0 or 1:
static routing; CAKE_AUTOTUNE_CACHE=FILE keeps the choices across processes;
cake_library/autotune.py).
`cake_library/library/library.json` holds every kernel's manifest and the routing table;
`cake_library/library/kernels/` the cubins (sm_90a); `cake_library/library/libcake_library.so`
the generated C++ dispatcher (C ABI, `cake_library_route`, `cake_library_kmeans_assign`,
`cake_library_route_candidates`, `cake_library_kmeans_assign_variant`,
`cake_library_computes_csq`: whether csq may be 0, |c|^2 then computed by the library) when it
was built, and beside it `_cake_native.abi3.so`, its CPython (>= 3.10) entry points, which the
Python module calls instead of ctypes where it loads (CAKE_LIBRARY_CTYPES=1: ctypes); their
sources and `build.sh` are in `cake_library/dispatch_src/` (set CAKE_LIBRARY_NATIVE=0 to use the
Python launcher instead).
"""


KDA_PACKAGE_README = """# CAKE kernel library: kda_fwd ({count} kernels)

Exported by `cake library export`. Needs python3, torch and a CUDA driver; not LLVM/MLIR, not the
CAKE build tree. Put this folder on PYTHONPATH:

    import cake_library
    out, final_state = cake_library.kda_fwd(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound,
                                            initial_state=None, output_final_state=True,
                                            cu_seqlens=None)

FlashKDA's interface: bf16 q, k, v, g [B, T, H, 128], beta [B, T, H], fp32 A_log [H] and dt_bias
[H, 128]; states fp32 [N, H, V, K]. `cake_library/library/library.json` holds the kernels'
manifests and the routing rule, `cake_library/library/kernels/` the cubins (sm_90a).
"""


def _geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _bucket(v, edges):
    for i, e in enumerate(edges):
        if v <= e:
            return i
    return len(edges)


def cmd_report(args):
    rows = jsonfile.read(args.rows, LibraryError)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise LibraryError(f"{args.rows}: expected a list of row objects")
    for i, r in enumerate(rows):
        bad = [k for k in SHAPE_KEYS if not isinstance(r.get(k), int) or isinstance(r.get(k), bool)]
        bad += [k for k, v in r.items() if k.endswith("_ms") and v is not None and
                (not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0)]
        if bad:
            raise LibraryError(f"{args.rows}: row {i}: {', '.join(bad)} missing or not a size / time > 0")
    anchors = [a for a in ("flashlib", "flash_kmeans") if any(r.get(a + "_ms") for r in rows)]
    out = [f"<html><head><meta charset='utf-8'><title>CAKE library report</title><style>{_CSS}</style>"
           "</head><body>", f"<h1>Library report: {html.escape(args.rows)}</h1>"]
    out.append("<h2>Summary (GPU time speed-up, geomean over correct rows)</h2><table><tr><th>part</th>"
               "<th>rows</th><th>correct</th>" + "".join(f"<th>vs {a}</th><th>min</th>" for a in anchors)
               + "</tr>")
    parts = [("all", rows, "cake_ms"), ("tuned", [r for r in rows if r.get("tuned")], "cake_ms"),
             ("held-out", [r for r in rows if not r.get("tuned")], "cake_ms")]
    if any(r.get("cake_static_ms") for r in rows):
        # Rows the first-call autotuner moved off the routed kernel (kmeans_bench's final) were
        # also timed with it: the same rows as routing alone would have served them.
        parts += [(p + ", static routing", sel, "cake_static_ms") for p, sel, _ in parts[::2]]
    for part, sel, time in parts:
        cells = ""
        for a in anchors:
            sp = [_speedup(r, a, time) for r in sel if r.get("correct")]
            sp = [x for x in sp if x]
            g = _geomean(sp)
            cells += f"<td>{_fmt(g)}</td><td>{_fmt(min(sp) if sp else None)}</td>"
        out.append(f"<tr><td>{part}</td><td>{len(sel)}</td>"
                   f"<td>{sum(bool(r.get('correct')) for r in sel)}</td>{cells}</tr>")
    out.append("</table>")
    if anchors:
        a = anchors[0]
        d_edges, k_edges = [16, 64, 128, 256, 512, 1024], [8, 64, 256, 1024, 4096]
        grid, winners = {}, {}
        for r in rows:
            key = (_bucket(r["D"], d_edges), _bucket(r["K"], k_edges))
            grid.setdefault(key, []).append(_speedup(r, a) if r.get("correct") else None)
            if r.get("kernel"):
                winners.setdefault(key, {}).setdefault(r["kernel"], 0)
                winners[key][r["kernel"]] += 1
        labels = lambda edges: [f"<= {e}" for e in edges] + [f"> {edges[-1]}"]  # noqa: E731
        out.append(f"<h2>Coverage over D x K: geomean speed-up vs {a} (rows), most used kernel</h2>"
                   "<table><tr><th>D \\ K</th>" + "".join(f"<th>{k}</th>" for k in labels(k_edges)) + "</tr>")
        for i, dl in enumerate(labels(d_edges)):
            out.append(f"<tr><th>{dl}</th>")
            for j in range(len(k_edges) + 1):
                cell = grid.get((i, j))
                if not cell:
                    out.append("<td></td>")
                    continue
                g = _geomean([x for x in cell if x])
                top = max(winners.get((i, j), {"-": 0}).items(), key=lambda kv: kv[1])[0]
                out.append(f"<td class='{_shade(g)}'>{_fmt(g)} ({len(cell)})<br><small>"
                           f"{html.escape(top)}</small></td>")
            out.append("</tr>")
        out.append("</table>")
    out.append("<h2>Every shape</h2><table><tr><th>B</th><th>N</th><th>D</th><th>K</th><th>dtype</th>"
               "<th>kernel</th><th>CAKE ms</th>" + "".join(f"<th>{a} ms</th><th>x</th>" for a in anchors)
               + "<th>correct</th><th>tuned</th></tr>")
    for r in rows:
        cells = "".join(f"<td>{_fmt(r.get(a + '_ms'), 4)}</td><td class='{_shade(_speedup(r, a))}'>"
                        f"{_fmt(_speedup(r, a))}</td>" for a in anchors)
        out.append(f"<tr><td>{r.get('B')}</td><td>{r.get('N')}</td><td>{r.get('D')}</td><td>{r.get('K')}</td>"
                   f"<td>{html.escape(str(r.get('dtype')))}</td><td>{html.escape(str(r.get('kernel')))}</td>"
                   f"<td>{_fmt(r.get('cake_ms'), 4)}</td>{cells}<td>{r.get('correct')}</td>"
                   f"<td>{r.get('tuned')}</td></tr>")
    out.append("</table></body></html>")
    outputs.write_file(args.out, "\n".join(out), "--out", inputs=[args.rows])
    print(f"wrote {args.out}")
    return 0


def _speedup(r, anchor, time="cake_ms"):
    """anchor / CAKE time of a row; `time` "cake_static_ms" falls back to cake_ms for a row the
    autotuner left on the routed kernel."""
    a, c = r.get(anchor + "_ms"), r.get(time) or r.get("cake_ms")
    return a / c if a and c else None


def _fmt(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


def _shade(g):
    return "" if g is None else ("good" if g >= 1.0 else ("close" if g >= 0.8 else "bad"))


_CSS = ("body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:2px 6px;text-align:right}.good{background:#cfc}.close{background:#ffc}.bad{background:#fcc}")


def parser():
    p = argparse.ArgumentParser(prog="cake library", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="generate, verify and compile every kernel of a definition")
    b.add_argument("--definition", default=os.path.join(_ROOT, "libraries", "kmeans"))
    b.add_argument("--out", required=True)
    b.add_argument("--bin", default=os.path.join(_ROOT, "build", "bin"))
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--dtypes", default="")
    r = sub.add_parser("route", help="which kernel serves a shape (CPU only)")
    r.add_argument("--library", required=True)
    r.add_argument("--shape", required=True)
    rep = sub.add_parser("report", help="an HTML page from a library's rows.json")
    rep.add_argument("--rows", required=True)
    rep.add_argument("--out", default="library-report.html")
    e = sub.add_parser("export", help="a self-contained package from a built library")
    e.add_argument("--library", required=True)
    e.add_argument("--out", required=True)
    library_evolve.add_parsers(sub, _ROOT)
    return p


def main(argv):
    args = parser().parse_args(argv)
    try:
        return dict({"build": cmd_build, "route": cmd_route, "report": cmd_report,
                     "export": cmd_export}, **library_evolve.COMMANDS)[args.cmd](args)
    except (LibraryError, outputs.OutputError, library_evolve.EvolveError, TaskError) as e:
        print(f"cake: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # writing an output: the disk, permissions
        print(f"cake: error: cannot write {e.filename or '?'}: {e.strerror or e}", file=sys.stderr)
        return 6 if e.errno in disk.DISK_ERRNOS else 2
