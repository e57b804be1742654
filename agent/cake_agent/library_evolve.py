"""``cake library evolve|evolve-ingest|winners``: a library's shapes evolved per bucket with the
harness's search (issue #16, item 2; libraries/README.md, "Evolution per bucket").

    cake library evolve --definition libraries/kmeans --db lib.db --work DIR [--backend batch]
        [--buckets NAME,...] [--dtypes ...] [--max-buckets N] [--candidates N] [--generation N]
    cake library evolve-ingest --db lib.db --work DIR     # after the GPU ran DIR/gpu/run.sh
    cake library winners --db lib.db [--out winners.json] [--emit libraries/kmeans/evolved.json]

The definition's ``evolve.py`` says what a bucket is: ``tasks(definition, out_dir, only, budget,
dtypes)`` writes one task file per bucket (docs/Tasks.md; a ``generator`` task) and returns their
paths and the buckets it leaves out with the reason. Each bucket is one run of ``cake evolve`` in
the same database: a new run for a bucket not seen yet, ``--resume`` for one whose batch was
ingested, nothing for one that waits for its batch or is done. So the command is resumable (run it
again after each GPU call: it continues every bucket from its database state), and what the
harness learns carries from one bucket to the next: tactic statistics (per task class), and the
cost model's calibration (``evolve-ingest`` refits the profile to every bucket's measurements so
far into DIR/profiles, and later ``evolve`` runs screen their proposals with it). With
``--backend batch`` every bucket's generation is exported under DIR/gpu/ with one ``run.sh`` that
runs them all: one GPU call per generation of every bucket.

``winners`` prints per bucket its start (the sweep's best configuration, the task's start genome)
and its fastest measured candidate with the per-shape times of both, measured in the same batch;
``--emit FILE`` hands them to the definition's ``record_winners(rows, FILE, min_gain)``, which
keeps those that beat their start (kmeans: evolved.json, built beside the plan's configurations,
then measured across the library's shapes by the tune phase like any other).
"""
import importlib.util
import json
import os
import shutil
import sys

from . import calibrate, cli
from .db import Database
from .task import TaskError, load_task, signature

RUN_SH = """#!/bin/bash
# Runs every exported batch beside this script (one per bucket) not run yet, one after the other,
# in the order of order.txt (the order --buckets named them: what matters most first, should the
# call be cut short), with the one cake-run beside this script. Written by cake library evolve;
# then, on the compile machine: cake library evolve-ingest.
cd "$(dirname "$0")"
for d in $(cat order.txt 2>/dev/null) */; do
  d=${d%/}
  [ -f "$d/plan.json" ] && [ ! -f "$d/results.json" ] || continue
  python3 "$d/run_batch.py" --cake-run "$PWD/cake-run" > "$d/run.log" 2>&1
  echo "$d rc=$? $(tail -1 "$d/run.log")"
done
"""


def _share_cake_run(gpu_dir):
    """One cake-run for every batch folder (run.sh passes it): each export carries its own copy,
    tens of MB over many buckets for one GPU call."""
    shared = os.path.join(gpu_dir, "cake-run")
    for d in sorted(os.listdir(gpu_dir)):
        own = os.path.join(gpu_dir, d, "cake-run")
        if os.path.isfile(own):
            os.replace(own, shared)  # the same binary (the batches of one invocation)


REPO_PROFILES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                             "profiles")
CALIBRATED_TARGET = "sm_90a"  # the library's kernels' target: its default profile is the one refitted


class EvolveError(ValueError):
    """A definition or a database that cannot be evolved (the message says why)."""


def _hook(definition):
    path = os.path.join(definition, "evolve.py")
    if not os.path.isfile(path):
        raise EvolveError(f"{definition}: no evolve.py (a library definition evolves through its "
                          f"tasks() hook: libraries/README.md)")
    spec = importlib.util.spec_from_file_location("cake_library_evolve_hook", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "tasks", None)):
        raise EvolveError(f"{path}: has no function tasks()")
    return module


def _state(db, task, candidates=None):
    """(run row or None, what to do): 'new', 'moved' (a new run: the last one was recorded under
    another search space of the bucket), 'resume', 'waiting' or 'done'. A run that ended
    when its budget was spent resumes when `candidates` (the budget given now) is larger than
    what it has recorded: the next generation of every bucket is `--candidates` more."""
    run = db.last_run(task.name) if db else None
    if run is None:
        return None, "new"
    if db.q("SELECT id FROM batches WHERE run_id=? AND status='exported'", (run["id"],)):
        return run, "waiting"
    if run["task_digest"] != task.digest() and task.foreign_genomes(db.genomes(run["id"])):
        # The bucket's task was rewritten from a newer table and its search moved (another family
        # or space: its best configuration changed): the old run's population cannot continue it.
        return None, "moved"
    if run["status"] == "done":
        recorded = db.q("SELECT COUNT(*) AS n FROM candidates WHERE run_id=?", (run["id"],))[0]["n"]
        return run, ("resume" if candidates and candidates > recorded else "done")
    return run, "resume"


def cmd_evolve(args):
    definition = os.path.abspath(args.definition)
    hook = _hook(definition)
    budget = {k: getattr(args, k) for k in ("candidates", "generation") if getattr(args, k)}
    if "candidates" in budget:
        budget["gpu_evals"] = budget["candidates"]
    only = set(args.buckets.split(",")) if args.buckets else None
    dtypes = set(args.dtypes.split(",")) if args.dtypes else None
    paths, skipped = hook.tasks(definition, os.path.join(args.work, "tasks"), only, budget, dtypes)
    if not paths:  # nothing to do is a mistake in the arguments (a bucket or dtype misspelt)
        raise EvolveError("no evolvable bucket" + (f" among {sorted(only)}" if only else "")
                          + (f" of dtypes {sorted(dtypes)}" if dtypes else "")
                          + "".join(f"; {b}: {why}" for b, why in sorted(skipped.items())))
    if args.buckets:  # the order given: run.sh runs the batches in it
        names = args.buckets.split(",")
        paths = sorted(paths, key=lambda p: next((i for i, b in enumerate(names) if
                                                  os.path.basename(p)[:-len(".json")].endswith(b)), len(names)))
    paths = paths[:args.max_buckets] if args.max_buckets else paths
    for name, why in sorted(skipped.items()):
        print(f"bucket {name}: not evolved ({why})")
    db = Database(args.db) if os.path.exists(args.db) else None
    gpu_dir = os.path.join(args.work, "gpu")
    profiles = os.path.join(args.work, "profiles")
    before = os.environ.get("CAKE_PROFILE_DIR")
    if os.path.isdir(profiles):  # refitted by evolve-ingest: the screen predicts with it
        os.environ["CAKE_PROFILE_DIR"] = os.path.abspath(profiles)
        print(f"cost model: the profiles of {profiles} (refitted to the buckets' measurements)")
    try:
        return _evolve_buckets(args, paths, skipped, db, gpu_dir)
    finally:
        if before is None:
            os.environ.pop("CAKE_PROFILE_DIR", None)
        else:
            os.environ["CAKE_PROFILE_DIR"] = before


def _evolve_buckets(args, paths, skipped, db, gpu_dir):
    counts = {}
    order = []
    for path in paths:
        task = load_task(path)
        run, what = _state(db, task, args.candidates)
        counts[what] = counts.get(what, 0) + 1
        if what in ("waiting", "done"):
            print(f"{task.name}: {'waiting for its batch' if what == 'waiting' else 'done'} (run {run['id']})")
            if what == "waiting":
                order += [os.path.basename(b["dir"]) for b in db.q(
                    "SELECT dir FROM batches WHERE run_id=? AND status='exported'", (run["id"],))]
            continue
        argv = ["evolve", "--db", args.db, "--quiet", "--jobs", str(args.jobs)]
        argv += ["--resume", str(run["id"])] if run else [path, "--backend", args.backend]
        if run and args.candidates:   # a resumed run keeps its budget unless it is given again
            argv += ["--candidates", str(args.candidates), "--gpu-evals", str(args.candidates)]
        if args.rng_seed is not None:
            argv += ["--rng-seed", str(args.rng_seed)]
        for flag in ("bin", "refs"):
            if getattr(args, flag):
                argv += [f"--{flag}", getattr(args, flag)]
        if args.backend == "batch" or (run and run["backend"] == "batch"):
            gen = 0 if run is None else db.q("SELECT MAX(generation) AS g FROM candidates WHERE run_id=?",
                                             (run["id"],))[0]["g"] + 1
            out = os.path.join(gpu_dir, f"{task.name}-g{gen}")
            order.append(os.path.basename(out))
            shutil.rmtree(out, ignore_errors=True)  # a batch folder of this name not ingested is stale
            argv += ["--batch-dir", out]
        print(f"{task.name}: " + (f"resuming run {run['id']}" if run else "new run" + (
            " (its search space moved since its last run: another configuration leads the bucket)"
            if what == "moved" else "")), flush=True)
        rc = cli.main(argv)
        if rc not in (0, None):
            print(f"{task.name}: cake evolve exited {rc}; the other buckets go on", file=sys.stderr)
            counts["failed"] = counts.get("failed", 0) + 1
        db = db or Database(args.db)
    if os.path.isdir(gpu_dir):
        _share_cake_run(gpu_dir)
        with open(os.path.join(gpu_dir, "order.txt"), "w") as f:
            f.write("".join(d + "\n" for d in order))
        with open(os.path.join(gpu_dir, "run.sh"), "w") as f:
            f.write(RUN_SH)
        os.chmod(os.path.join(gpu_dir, "run.sh"), 0o755)
    print("buckets: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + f"; {len(skipped)} not evolved")
    if os.path.isdir(gpu_dir) and any(os.path.isfile(os.path.join(gpu_dir, d, "plan.json"))
                                      and not os.path.isfile(os.path.join(gpu_dir, d, "results.json"))
                                      for d in os.listdir(gpu_dir)):
        print(f"GPU machine: bash {gpu_dir}/run.sh; then here: cake library evolve-ingest --db {args.db} "
              f"--work {args.work}")
    return 1 if counts.get("failed") else 0


def cmd_ingest(args):
    """Ingests every results.json under WORK/gpu whose batch the database still expects."""
    gpu_dir = os.path.join(args.work, "gpu")
    if not os.path.isdir(gpu_dir):
        raise EvolveError(f"{gpu_dir}: no such folder (cake library evolve --backend batch writes it)")
    db = Database(args.db)
    done = 0
    for d in sorted(os.listdir(gpu_dir)):
        results = os.path.join(gpu_dir, d, "results.json")
        if not os.path.isfile(results):
            continue
        try:
            with open(results) as f:
                bid = json.load(f).get("batch")
        except (ValueError, AttributeError) as e:  # cut short on the GPU machine, or not a results file
            print(f"{results}: not a batch results file ({e}); skipped", file=sys.stderr)
            continue
        row = db.q("SELECT status FROM batches WHERE id=?", (bid,))
        if not row or row[0]["status"] != "exported":
            continue  # ingested before, or another database's
        rc = cli.main(["batch-ingest", "--db", args.db, results])
        done += rc == 0
    print(f"ingested {done} batches; next: cake library evolve ... again continues every bucket")
    if done and args.calibrate:
        _calibrate(args.db, args.work)
    return 0


def _default_profile(folder, target):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                if target in json.load(f).get("default_for", []):
                    return name
    raise EvolveError(f"{folder}: no profile is the default for {target}")


def _calibrate(db_path, work):
    """Refits the cost model's profile to every bucket's measurements so far (cake calibrate
    --from-db; the repository's profile is the prior each time, so refits do not drift) into
    WORK/profiles, with which later `evolve` runs screen their proposals (CAKE_PROFILE_DIR): what
    one bucket measured steers the next one's screen. A fit that fails leaves the profile as it was."""
    profiles = os.path.join(work, "profiles")
    os.makedirs(profiles, exist_ok=True)
    for name in os.listdir(REPO_PROFILES):
        if name.endswith(".json") and not os.path.exists(os.path.join(profiles, name)):
            shutil.copy2(os.path.join(REPO_PROFILES, name), profiles)
    name = _default_profile(REPO_PROFILES, CALIBRATED_TARGET)
    rc = calibrate.main(["--from-db", db_path, "--profile", os.path.join(REPO_PROFILES, name),
                         "-o", os.path.join(profiles, name), "--summary-json",
                         os.path.join(profiles, "calibration-summary.json")])
    print(f"calibration: {'profiles/' + name + ' refitted' if rc == 0 else 'not refitted (cake calibrate exited %d)' % rc}"
          f" for the next generation's screen")


def _times(db, cid):
    return {json.dumps(json.loads(m["shape"]), sort_keys=True): m["time_ms"] for m in db.q(
        "SELECT shape, time_ms FROM measurements WHERE candidate_id=? AND status='ok'", (cid,))}


def winners(db):
    """Per bucket run: the start candidate and the fastest measured one, with per-shape times."""
    out = []
    for run in db.q("SELECT * FROM runs WHERE task_class='kmeans_lib' OR task LIKE 'kmeans_lib_%' ORDER BY id"):
        try:
            task = load_task(run["task_path"])
        except TaskError:
            continue
        start_sig = signature(task.start_genome())
        cands = db.q("SELECT id, signature, genome, tactics, fitness, status FROM candidates WHERE run_id=? "
                     "AND fitness_kind='measured_ms' ORDER BY fitness", (run["id"],))
        if not cands:
            continue
        start = next((c for c in cands if c["signature"] == start_sig), None)
        best = cands[0]
        row = {"task": run["task"], "run": run["id"], "measured": len(cands),
               "comment": task.data.get("comment"), "fixed": (task.data.get("generator") or {}).get("fixed"),
               "shapes": task.shapes,
               "best": _describe(db, best),
               "start": _describe(db, start) if start else None}
        if start:
            row["best_over_start"] = start["fitness"] / best["fitness"]
        out.append(row)
    return out


def _describe(db, c):
    return {"candidate": c["id"], "genome": json.loads(c["genome"]) if c["genome"] else None,
            "tactics": json.loads(c["tactics"]) if c["tactics"] else [], "fitness": c["fitness"],
            "ms": _times(db, c["id"])}


def cmd_winners(args):
    if not os.path.exists(args.db):
        raise EvolveError(f"no database at {args.db}")
    rows = winners(Database(args.db))
    if args.emit:
        hook = _hook(os.path.abspath(args.definition))
        if not callable(getattr(hook, "record_winners", None)):
            raise EvolveError(f"{args.definition}/evolve.py has no record_winners(): nothing to emit into")
        added = hook.record_winners(rows, args.emit, args.min_gain)
        print(f"{len(added)} new configurations in {args.emit}", file=sys.stderr)
    text = json.dumps(rows, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    for r in rows:
        gain = f"{r['best_over_start']:.3f}x over its start" if "best_over_start" in r else "start not measured"
        print(f"{r['task']}: best candidate {r['best']['candidate']} ({gain}, {r['measured']} measured)",
              file=sys.stderr)
    return 0


def add_parsers(sub, root):
    e = sub.add_parser("evolve", help="evolve a definition's shape buckets with the harness's search")
    e.add_argument("--definition", default=os.path.join(root, "libraries", "kmeans"))
    e.add_argument("--db", required=True, help="the harness database (every bucket's run)")
    e.add_argument("--work", required=True, help="folder for the buckets' tasks and the GPU batches")
    e.add_argument("--backend", default="model-only", choices=["model-only", "local", "batch"])
    e.add_argument("--buckets", help="only these bucket names (comma-separated)")
    e.add_argument("--dtypes", help="only these dtypes (comma-separated)")
    e.add_argument("--max-buckets", type=int, help="at most this many buckets (in name order)")
    e.add_argument("--candidates", type=int, help="candidates per bucket (the tasks' budget)")
    e.add_argument("--generation", type=int, help="candidates per generation")
    e.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    e.add_argument("--rng-seed", type=int)
    e.add_argument("--bin", help="folder of cake-opt, cake-translate, cake-run (default build/bin)")
    e.add_argument("--refs", help="folder of reference cubins (default build/examples/ref)")
    i = sub.add_parser("evolve-ingest", help="store the GPU results of every bucket's batch")
    i.add_argument("--db", required=True)
    i.add_argument("--work", required=True)
    i.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                   help="do not refit the cost model's profile to the measurements (WORK/profiles)")
    w = sub.add_parser("winners", help="per bucket: the start and the fastest measured candidate")
    w.add_argument("--db", required=True)
    w.add_argument("--out")
    w.add_argument("--emit", metavar="FILE", help="add the winners that beat their start to FILE (the "
                   "definition's evolved.json, which its build reads)")
    w.add_argument("--definition", default=os.path.join(root, "libraries", "kmeans"))
    w.add_argument("--min-gain", type=float, default=1.03, help="--emit: the least start/best time ratio")


COMMANDS = {"evolve": cmd_evolve, "evolve-ingest": cmd_ingest, "winners": cmd_winners}
