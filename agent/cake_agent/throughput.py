"""``cake throughput``: how fast this machine verifies, costs and compiles candidates (docs/Harness.md).

1. **generate**: N distinct candidates of a task with the search policy (parameter mutations and the
   built-in tactics, as ``cake evolve`` proposes them; every candidate is treated as viable).
2. **verify + cost** all of them with ``--jobs`` threads (Evaluator.check): candidates per second.
3. **compile** (IR -> cubin + manifest + ptxas log) those that verified, with ``--jobs`` threads
   (Evaluator.build): candidates per second, and the median of one compile.
4. **evolve**: a model-only ``evolve`` of N candidates into a scratch database (policy, evaluation,
   records; no compile cache, tactic answers forgotten first): candidates recorded per second, end
   to end.
5. **examples**: each examples/NAME.mlir compiled ``--repeat`` times, one at a time: the median IR ->
   cubin latency; then where it goes (``--no-profile`` skips it), from cake-translate's own stages:
   ``--emit=manifest`` (process start, parse, verify, manifest), ``--emit=llvm`` (+ lowering to the
   NVVM/LLVM dialects and translation to LLVM IR), ``--emit=ptx`` (+ LLVM -O3 and NVPTX codegen), and
   ptxas alone on that PTX (``ptxas -arch=<target> -O3 -v``, as cake-translate runs it).

Targets (harness issue): >= 8 candidates/s verified + costed; IR -> cubin <= 0.25 s median for
GEMM-class kernels. Figures depend on the machine and on what else runs there: the report gives the
core count and how busy the cores were just before.
"""
import concurrent.futures
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

from . import backends, population
from . import tactics as tactics_mod
from .db import Database
from .evaluator import Evaluator, find_ptxas, ir_hash
from .evolve import evolve
from .policies.search import SearchPolicy
from .task import load_task
from .tools import Toolchain

TARGET_RATE = 8.0  # candidates verified + costed per second
TARGET_COMPILE_S = 0.25  # median IR -> cubin of a GEMM-class kernel
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def busy_cores(interval=1.0):
    """How many cores were busy (any process) during ``interval`` seconds, from /proc/stat; None elsewhere."""
    def sample():
        with open("/proc/stat") as f:
            vals = [int(x) for x in f.readline().split()[1:]]
        return sum(vals), vals[3] + (vals[4] if len(vals) > 4 else 0)
    try:
        t0, i0 = sample()
        time.sleep(interval)
        t1, i1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    total = t1 - t0
    return round((total - (i1 - i0)) / total * (os.cpu_count() or 1), 2) if total > 0 else None


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"cores": os.cpu_count(), "cpu": cpu, "loadavg": [round(x, 2) for x in load] if load else None,
            "busy_cores_before": busy_cores()}


class _Row(dict):
    """A candidate row as population.Member reads it."""


def generate(task, tools, n, rng_seed, tacs, per_generation=8):
    """Up to ``n`` proposals with distinct IR, generation by generation as evolve proposes them."""
    policy = SearchPolicy(task, random.Random(rng_seed), tools, tacs)
    members, props, seen = [], [], set()
    generation = 0
    while len(props) < n:
        new = [p for p in policy.propose(members, min(per_generation, n - len(props)))
               if ir_hash(p.ir) not in seen]
        if not new:
            break  # the space (with these tactics) is exhausted
        for p in new:
            seen.add(ir_hash(p.ir))
            props.append(p)
            members.append(population.Member(_Row(
                id=len(props), ir=p.ir, genome=json.dumps(p.genome) if p.genome else None, signature=p.signature,
                tactics=json.dumps(list(p.tactics)), status="compiled", failure_class=None, fitness=None,
                generation=generation, ir_hash=ir_hash(p.ir))))
        generation += 1
    return props


def _median(xs):
    return statistics.median(xs) if xs else None


def _timed_pool(fn, items, jobs):
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        out = list(pool.map(fn, items))
    return out, time.monotonic() - start


def _step_seconds(ev, *names):
    return sum(s["seconds"] or 0.0 for s in ev.steps if s["step"] in names)


class StepFailed(RuntimeError):
    pass


def _run(argv):
    start = time.monotonic()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    if proc.returncode != 0:
        raise StepFailed(f"{os.path.basename(argv[0])} exited {proc.returncode}: "
                         + " ".join((proc.stderr or "").strip().splitlines()[-1:])[:300])
    return time.monotonic() - start


def examples(tools, names, repeat, profile, jobs, scratch):
    """IR -> cubin latency of examples/NAME.mlir (median of ``repeat``, one at a time), the split
    of one compile by stage (``profile``), and the rate of compiling all of them ``jobs`` at a time."""
    translate = tools.path("cake-translate")
    ptxas = find_ptxas()
    os.makedirs(scratch, exist_ok=True)
    out = []
    for name in names:
        src = os.path.join(ROOT, "examples", name + ".mlir")
        if not os.path.isfile(src):
            out.append({"example": name, "error": f"no {src}"})
            continue
        try:
            out.append(_example(translate, ptxas, name, src, os.path.join(scratch, name), repeat, profile))
        except StepFailed as e:
            out.append({"example": name, "error": str(e)})
    ok = [r for r in out if "median_s" in r]
    batch = None
    if ok:
        argvs = []
        for r in ok:
            for i in range(repeat):
                b = os.path.join(scratch, f"par-{r['example']}-{i}")
                argvs.append([translate, os.path.join(ROOT, "examples", r["example"] + ".mlir"), "--emit=cubin",
                              "-o", b + ".cubin", "--manifest", b + ".json", "--ptxas-log", b + ".log"])
        _, wall = _timed_pool(_run, argvs, jobs)
        batch = {"compiles": len(argvs), "wall_s": wall, "per_s": len(argvs) / wall}
    return out, batch


def _example(translate, ptxas, name, src, base, repeat, profile):
    """One example: the latency of IR -> cubin and (``profile``) where it goes."""
    cubin = [translate, src, "--emit=cubin", "-o", base + ".cubin", "--manifest", base + ".json",
             "--ptxas-log", base + ".log"]
    times = [_run(cubin) for _ in range(repeat)]
    row = {"example": name, "median_s": _median(times), "min_s": min(times), "max_s": max(times),
           "runs": repeat}
    if profile:
        stage = {}
        for emit in ("manifest", "llvm", "ptx"):
            stage[emit] = _median([_run([translate, src, f"--emit={emit}", "-o", base + "." + emit])
                                   for _ in range(repeat)])
        with open(base + ".ptx") as f:
            target = next((l.split()[1] for l in f if l.startswith(".target")), "sm_90a")
        row["ptxas_alone_s"] = _median([_run([ptxas, f"-arch={target}", "-O3", "-v", base + ".ptx",
                                              "-o", base + ".ptxas.cubin"]) for _ in range(repeat)]) \
            if ptxas else None
        with open(base + ".log") as f:
            row["ptxas_reported_ms"] = next((float(l.split("=")[1].split()[0]) for l in f
                                             if "Compile time =" in l), None)
        row["split_s"] = {
            "start+parse+verify+manifest": stage["manifest"],
            "lower to LLVM dialect + translate to LLVM IR": stage["llvm"] - stage["manifest"],
            "LLVM -O3 + NVPTX codegen": stage["ptx"] - stage["llvm"],
            "ptxas (in cake-translate)": row["median_s"] - stage["ptx"],
        }
    return row


def measure(task_path, n, jobs, bin_dir=None, example_names=(), repeat=7, profile=True, do_evolve=True,
            rng_seed=1, workdir=None):
    """All the figures, as a dict (see the module docstring)."""
    tools = Toolchain(bin_dir)
    tools.require("cake-opt", "cake-translate")
    task = load_task(task_path)
    own = workdir is None
    scratch = tempfile.mkdtemp(prefix="cake-throughput-") if own else workdir
    os.makedirs(scratch, exist_ok=True)
    try:
        res = {"machine": machine(), "task": task.name, "shapes": len(task.shapes), "jobs": jobs,
               "cost_model": tools.features()["cost_report"]}
        tacs = tactics_mod.builtin(tools)
        tactics_mod.forget()
        start = time.monotonic()
        props = generate(task, tools, n, rng_seed, tacs, int(task.budget["generation"]))
        gen_s = time.monotonic() - start
        res["generate"] = {"candidates": len(props), "wall_s": gen_s,
                           "with_tactics": sum(1 for p in props if p.tactics), "tactics": [t.name for t in tacs]}
        ev = Evaluator(task, tools, os.path.join(scratch, "work"))
        checked, wall = _timed_pool(ev.check, [p.ir for p in props], jobs)
        verified = [e for e in checked if e.status == "new"]
        res["verify_cost"] = {"candidates": len(checked), "verified": len(verified), "wall_s": wall,
                              "per_s": len(checked) / wall if wall else None,
                              "median_candidate_s": _median([_step_seconds(e, "verify", "cost") for e in checked]),
                              "median_verify_s": _median([_step_seconds(e, "verify") for e in checked]),
                              "median_cost_s": _median([_step_seconds(e, "cost") for e in verified])}
        built, wall = _timed_pool(ev.build, verified, jobs)
        res["compile"] = {"candidates": len(built), "compiled": sum(e.status == "compiled" for e in built),
                          "wall_s": wall, "per_s": len(built) / wall if wall else None,
                          "median_candidate_s": _median([_step_seconds(e, "compile") for e in built])}
        if do_evolve:
            tactics_mod.forget()  # evolve starts cold, as a new process would
            db_path = os.path.join(scratch, "evolve.db")
            db = Database(db_path)
            budget = dict(task.budget, candidates=n, wall_s=3600)
            run_id = db.new_run(task, "model-only", "search", {"throughput": True})
            start = time.monotonic()
            result = evolve(db, run_id, task, tools, backends.ModelOnly(),
                            SearchPolicy(task, random.Random(rng_seed), tools, tacs), os.path.join(scratch, "evolve"),
                            budget, jobs)
            wall = time.monotonic() - start
            rows = db.candidates(run_id)
            res["evolve"] = {"candidates": len(rows), "wall_s": wall, "per_s": len(rows) / wall if wall else None,
                             "stopped": result.reason, "generation_size": int(task.budget["generation"])}
            db.close()
        if example_names:
            res["examples"], res["examples_parallel"] = examples(tools, example_names, repeat, profile, jobs,
                                                                 os.path.join(scratch, "examples"))
        res["machine"]["loadavg_after"] = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
        return res
    finally:
        if own:
            shutil.rmtree(scratch, ignore_errors=True)


def _verdict(ok):
    return "meets the target" if ok else "MISSES the target"


def text(res):
    m = res["machine"]
    lines = [f"machine: {m['cores']} cores ({m['cpu']}); busy cores just before: {m['busy_cores_before']}; "
             f"load average {m['loadavg']} -> {m.get('loadavg_after')}",
             f"task {res['task']} ({res['shapes']} shapes), {res['jobs']} jobs, cost model "
             f"{'on' if res['cost_model'] else 'absent'}"]
    g = res["generate"]
    lines.append(f"generate: {g['candidates']} distinct candidates ({g['with_tactics']} with tactics) in "
                 f"{g['wall_s']:.2f} s")
    v = res["verify_cost"]
    if v["per_s"]:
        lines.append(f"verify+cost: {v['candidates']} candidates in {v['wall_s']:.2f} s = {v['per_s']:.1f}/s "
                     f"({_verdict(v['per_s'] >= TARGET_RATE)} >= {TARGET_RATE:g}/s); one candidate: median "
                     f"{v['median_candidate_s']:.3f} s (verify {v['median_verify_s']:.3f} s, cost "
                     f"{(v['median_cost_s'] or 0):.3f} s for {res['shapes']} shapes); {v['verified']} verified")
    c = res["compile"]
    if c["per_s"]:
        lines.append(f"compile: {c['candidates']} candidates in {c['wall_s']:.2f} s = {c['per_s']:.1f}/s; one "
                     f"compile: median {c['median_candidate_s']:.3f} s; {c['compiled']} compiled")
    e = res.get("evolve")
    if e and e["per_s"]:
        lines.append(f"evolve (model-only, end to end: propose, verify, cost, compile, record): {e['candidates']} "
                     f"candidates in {e['wall_s']:.2f} s = {e['per_s']:.1f}/s ({e['stopped']})")
    for r in res.get("examples", []):
        if "error" in r:
            lines.append(f"example {r['example']}: {r['error']}")
            continue
        lines.append(f"IR -> cubin {r['example']}: median {r['median_s']:.3f} s (min {r['min_s']:.3f}, max "
                     f"{r['max_s']:.3f}, {r['runs']} runs) {_verdict(r['median_s'] <= TARGET_COMPILE_S)} "
                     f"<= {TARGET_COMPILE_S:g} s")
        if "split_s" in r:
            lines.append("    split: " + "; ".join(f"{k} {v:.3f} s" for k, v in r["split_s"].items()))
            if r.get("ptxas_alone_s") is not None:
                lines.append(f"    ptxas alone on the PTX: {r['ptxas_alone_s']:.3f} s (its own report: "
                             f"{r['ptxas_reported_ms']} ms compile)")
    b = res.get("examples_parallel")
    if b:
        lines.append(f"examples compiled {res['jobs']} at a time: {b['compiles']} in {b['wall_s']:.2f} s = "
                     f"{b['per_s']:.2f}/s")
    return "\n".join(lines)


def main(args):
    names = [x for x in (args.examples or "").split(",") if x]
    res = measure(args.task, args.n, args.jobs, args.bin, names, args.repeat, not args.no_profile,
                  not args.no_evolve, args.rng_seed, args.workdir)
    print(json.dumps(res, indent=1) if args.json else text(res))
    return 0
