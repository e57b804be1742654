"""The one command line: ``cake evolve|db|report|batch-export|batch-ingest|calibrate|learn|throughput|idioms|library``
(docs/Harness.md).

Exit codes: 0 done; 2 bad task file, arguments or configuration; 3 run aborted by its policy (LLM
endpoint unreachable or answering garbage); 4 a tool binary is missing; 5 no GPU for the local
backend (or a batch that ran without one); 6 the disk is full or the database unwritable (one line
naming the path; no traceback; committed records are intact and ``evolve --resume`` continues);
7 environment error: the task's seed does not verify, compile or pass its GPU check here, or a whole
generation failed for the tools' or the machine's reasons (nothing is blamed on a candidate).
"""
import argparse
import json
import os
import random
import sqlite3
import sys

from . import backends, batch, disk, envcheck, feedback, learn, outputs, report, summary
from . import tactics as tactics_mod
from . import tools as tools_mod
from .db import Database, Unreadable
from .evolve import default_cache_dir, default_workdir, evolve
from .policies import PolicyAbort
from .policies.llm import LLMConfigError, LLMPolicy
from .policies.search import SearchPolicy
from .progress import Progress
from .task import TaskError, load_task
from .tools import Toolchain, ToolMissing


_AGENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ROOT = os.path.dirname(_AGENT)


def _err(msg, code):
    print(f"cake: error: {msg}", file=sys.stderr)
    return code


def _common(p):
    p.add_argument("--db", default="cake-agent.db", help="the SQLite database (default ./cake-agent.db)")


def _positive(kind):
    """An argparse type: a number of ``kind`` above zero (a bad value is an argparse error, exit 2)."""
    what = "an integer" if kind is int else "a number"

    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what} above 0, got {text!r}") from None
        if not v > 0:  # also refuses nan
            raise argparse.ArgumentTypeError(f"expected {what} above 0, got {text!r}")
        return v
    return parse


POS_INT, POS_FLOAT = _positive(int), _positive(float)


def parser():
    ap = argparse.ArgumentParser(prog="cake", description="The CAKE evolution harness.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("evolve", help="evolve a task's kernel")
    e.add_argument("task", nargs="?", help="task file (JSON, docs/Tasks.md); optional with --resume")
    _common(e)
    e.add_argument("--backend", default="auto", choices=["auto", "model-only", "local", "batch", "ray"],
                   help="auto: local where a GPU is present, else model-only; ray: compile and measure jobs over "
                        "a Ray cluster (optional package 'ray')")
    e.add_argument("--ray-address", help="ray backend: the cluster to join ('auto', 'ray://HOST:10001'; default: "
                                         "start a local one on this machine)")
    e.add_argument("--ray-timeout", type=POS_FLOAT, metavar="S",
                   help="ray backend: seconds a measure job may run before its worker is taken for lost and the "
                        "job is retried (default: from the task's run timeout and shape count)")
    e.add_argument("--policy", default="search", choices=["search", "llm"])
    e.add_argument("--resume", nargs="?", const="last", metavar="RUN", help="continue a run (default: the last)")
    e.add_argument("--bin", help="folder of cake-opt, cake-translate, cake-run (default build/bin)")
    e.add_argument("--refs", help="folder of reference cubins (default build/examples/ref)")
    e.add_argument("--workdir", help="where candidates' files go (default beside the database)")
    e.add_argument("--batch-dir", help="batch backend: export folder (default <workdir>/batch-gen<G>)")
    e.add_argument("--tactics", help="more tactics (JSON list; see docs/Harness.md), besides the built-in ones")
    e.add_argument("--no-builtin-tactics", action="store_true", help="do not use cake-opt's cake-tactic-* passes")
    e.add_argument("--rules", help="rule files (rules as data; comma-separated) the verify step loads besides "
                                   "the shipped rules/ (e.g. learned ones: cake learn rules --save DIR); "
                                   "'none' loads no rule file")
    e.add_argument("--no-compile-cache", action="store_true",
                   help="always compile (default: reuse the outputs of identical IR compiled by the same tools, "
                        "kept in cake-agent-work/compile-cache beside the database)")
    e.add_argument("--jobs", type=POS_INT, default=os.cpu_count() or 1, help="parallel CPU evaluations")
    e.add_argument("--rng-seed", type=int, help="seed of the policy's random choices")
    e.add_argument("--iters", type=POS_INT, default=50, help="cake-run timed iterations")
    for k in ("candidates", "gpu-evals", "wall-s", "generation", "screen"):
        e.add_argument(f"--{k}", type=POS_FLOAT if k == "wall-s" else POS_INT,
                       help=f"override budget.{k.replace('-', '_')} (above 0)")
    e.add_argument("--quiet", action="store_true", help="no progress line")
    e.add_argument("--print-records", action="store_true", help="print 'recorded <id>' after each commit")
    # Listed for --help; main() hands their arguments to their own parsers before this one runs.
    sub.add_parser("calibrate", help="fit the cost model's profile to measurements (cake calibrate --help)")
    sub.add_parser("library", help="build, route, report and export kernel libraries (cake library --help)")
    d = sub.add_parser("db", help="answer common questions from the database")
    _common(d)
    d.add_argument("question", choices=["runs", "best", "failures", "lineage", "show", "feedback", "tactics"])
    d.add_argument("--class", dest="task_class", help="tactics: the task class (default: every class)")
    d.add_argument("id", nargs="?", type=int, help="candidate id (lineage, show, feedback) or run id (failures)")
    r = sub.add_parser("report", help="write an HTML report of a run")
    _common(r)
    r.add_argument("--run", type=POS_INT, help="run id (default: the last)")
    r.add_argument("-o", "--output", help="HTML file (default report-run<ID>.html)")
    x = sub.add_parser("batch-export", help="export a run's candidates waiting for a GPU")
    _common(x)
    x.add_argument("--run", type=POS_INT, help="run id (default: the last)")
    x.add_argument("--out", required=True, help="folder to write")
    x.add_argument("--bin")
    x.add_argument("--refs")
    x.add_argument("--iters", type=POS_INT, default=50)
    i = sub.add_parser("batch-ingest", help="store the results of an exported batch")
    _common(i)
    i.add_argument("results", help="results.json written by run_batch.py")
    lr = sub.add_parser("learn", help="propose verifier rules from failure clusters (docs/Harness.md)")
    _common(lr)
    lr.add_argument("what", choices=["rules"])
    lr.add_argument("--min-members", type=POS_INT, default=2, help="smallest cluster to learn from")
    lr.add_argument("--class", dest="task_class", help="only failures of this task class")
    lr.add_argument("--bin", help="folder of cake-opt (default build/bin)")
    lr.add_argument("--save", metavar="DIR", help="save accepted rules' lit tests here "
                    "(e.g. test/Verify/learned)")
    lr.add_argument("--rules-dir", metavar="DIR", default=None,
                    help="with --save, where the accepted rules go (default: the user's data folder, "
                    "$CAKE_USER_RULES or $XDG_DATA_HOME/cake/rules/learned, which every later run's "
                    "verify step loads; promote a rule into the repository's rules/learned/ by hand)")
    lr.add_argument("--workdir", help="scratch folder for proposed rules (default: a temporary one)")
    t = sub.add_parser("throughput", help="measure the harness's verify/cost/compile rates on this machine")
    t.add_argument("--task", default=os.path.join(_AGENT, "tasks", "gemm.json"),
                   help="task whose candidates are generated (default agent/tasks/gemm.json)")
    t.add_argument("--n", type=POS_INT, default=32, help="distinct candidates to generate (default 32)")
    t.add_argument("--jobs", type=POS_INT, default=os.cpu_count() or 1, help="parallel evaluations (default: all cores)")
    t.add_argument("--bin", help="folder of cake-opt, cake-translate (default build/bin)")
    t.add_argument("--examples", default="hopper_gemm,hopper_gemm_bf16,hopper_gemm_rs,ampere_gemm,gemm",
                   help="examples/*.mlir whose IR->cubin latency is measured ('' for none)")
    t.add_argument("--repeat", type=POS_INT, default=7, help="compiles of each example (median)")
    t.add_argument("--no-profile", action="store_true", help="skip the per-stage split of the examples' compile")
    t.add_argument("--no-evolve", action="store_true", help="skip the end-to-end evolve measurement")
    t.add_argument("--rng-seed", type=int, default=1)
    t.add_argument("--workdir", help="scratch folder (default: a temporary one, removed afterwards)")
    t.add_argument("--json", action="store_true", help="print the figures as JSON")
    m = sub.add_parser("idioms", help="mine passing candidates' IR for frequent op sequences (new primitives?)")
    _common(m)
    m.add_argument("--run", type=POS_INT, help="only this run (default: every run)")
    m.add_argument("--task", help="only runs of this task")
    m.add_argument("--min-support", type=POS_INT, default=3, help="least number of distinct candidates (default 3)")
    m.add_argument("--min-len", type=POS_INT, default=2, help="shortest sequence (default 2)")
    m.add_argument("--max-len", type=POS_INT, default=5, help="longest sequence (default 5)")
    m.add_argument("--dialects", default="cake",
                   help="ops of these dialects form the sequences, comma-separated ('*': every dialect; default cake)")
    m.add_argument("--types", action="store_true", help="also match the ops' types (numbers abstracted)")
    m.add_argument("--connected", action="store_true", help="only sequences whose every op uses an earlier one's result")
    m.add_argument("--all", action="store_true", help="keep sequences contained in a longer one of equal support")
    m.add_argument("--top", type=POS_INT, default=20, help="how many to print (default 20; --json prints all)")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--bin", help="folder of cake-opt, which reads the IR (default build/bin)")
    return ap


def _one_line(text):
    return " ".join(str(text).split())


def _disk_message(e, db_path):
    """One line for a full disk or an unwritable database, naming the path."""
    if isinstance(e, disk.DiskFull):
        return _one_line(f"disk full: cannot write {e.path}: {e.reason}")
    if isinstance(e, sqlite3.Error):
        what = "disk full" if disk.is_disk_error(e) else "database unwritable"
        return _one_line(f"{what}: cannot write the database {os.path.abspath(db_path)}: {disk.describe_sqlite(e)}")
    what = "disk full" if e.errno in disk.DISK_ERRNOS else "not writable"
    return _one_line(f"{what}: cannot write {e.filename or '?'}: {e.strerror or e}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["calibrate"]:  # its own parser: docs/CostModel.md
        from . import calibrate
        return calibrate.main(argv[1:])
    if argv[:1] == ["library"]:  # its own parser: libraries/README.md
        from . import library
        return library.main(argv[1:])
    args = parser().parse_args(argv)
    try:
        if args.cmd not in ("evolve", "throughput") and not os.path.exists(args.db):
            return _err(f"no database at {args.db}", 2)
        return {"evolve": cmd_evolve, "db": cmd_db, "report": cmd_report, "batch-export": cmd_batch_export,
                "batch-ingest": cmd_batch_ingest, "learn": cmd_learn, "throughput": cmd_throughput,
                "idioms": cmd_idioms}[args.cmd](args)
    except (TaskError, Unreadable, outputs.OutputError) as e:
        return _err(str(e), 2)
    except ToolMissing as e:
        return _err(str(e), 4)
    except (disk.DiskFull, sqlite3.Error, OSError) as e:
        if isinstance(e, OSError) and e.errno not in disk.DISK_ERRNOS | disk.UNWRITABLE_ERRNOS:
            raise
        if isinstance(e, (sqlite3.InterfaceError, sqlite3.ProgrammingError)):
            raise  # a bug (e.g. a value SQLite cannot bind), not the disk: the traceback says where
        return _err(_disk_message(e, getattr(args, "db", "?")) + "; committed records are intact", 6)


def _open_run(args, db):
    """(run row or None, task) for evolve: a new run, or the one --resume names."""
    if not args.resume:
        if not args.task:
            raise TaskError("evolve needs a task file (or --resume)")
        return None, load_task(args.task)
    if args.resume == "last":
        run = db.last_run(load_task(args.task).name if args.task else None)
    else:
        run = db.run(int(args.resume)) if args.resume.isdigit() else None
    if run is None:
        raise TaskError(f"--resume: no run {args.resume} in {args.db}")
    task = load_task(args.task or run["task_path"])
    if task.name != run["task"]:
        raise TaskError(f"--resume: run {run['id']} is task '{run['task']}', not '{task.name}'")
    if task.digest() != run["task_digest"]:
        foreign = task.foreign_genomes(db.genomes(run["id"]))
        if foreign:
            raise TaskError(f"--resume: the task file changed since run {run['id']} began and "
                            f"{len(foreign)} of its candidates are outside the task's search space now "
                            f"(first: {json.dumps(foreign[0])}; tunables now: {', '.join(task.tunables)}): "
                            f"start a new run")
        print(f"warning: the task file changed since run {run['id']} began", file=sys.stderr)
    return run, task


def cmd_evolve(args):
    if args.task:
        load_task(args.task)  # a bad task file is refused before the database is created or touched
    tools = Toolchain(args.bin, args.refs)
    tools.require("cake-opt", "cake-translate")  # so are missing tools
    if args.resume and not os.path.isfile(args.db):
        raise TaskError(f"--resume: no database at {args.db}")
    db = Database(args.db)
    run, task = _open_run(args, db)
    config_before = json.loads(run["config"] or "{}") if run else {}
    rules = args.rules if args.rules is not None else config_before.get("rules")
    if rules == "none":
        tools.rules = []
    elif rules:
        extra = [r for r in rules.split(",") if r]
        missing = [r for r in extra if not os.path.isfile(r)]
        if missing:
            raise TaskError(f"--rules: no such file: {', '.join(missing)}")
        tools.rules += [os.path.abspath(r) for r in extra]
    name = run["backend"] if run else args.backend
    if name == "auto":
        name = "local" if backends.gpu_present() else "model-only"
    if name in ("local", "batch"):
        tools.require("cake-run")
    ray = {"ray_address": args.ray_address or config_before.get("ray_address"),
           "ray_timeout": args.ray_timeout or config_before.get("ray_timeout")}
    try:
        backend = backends.make(name, args.iters, ray["ray_address"], ray["ray_timeout"])
    except backends.BackendUnavailable as e:  # e.g. --backend ray without the ray package
        return _err(str(e), 2)
    try:
        return _evolve_with(args, db, run, task, tools, backend, name, rules, config_before, ray)
    finally:
        backend.close()


def _evolve_with(args, db, run, task, tools, backend, name, rules, config_before, ray):
    if backend.measures and name == "ray":
        tools.require("cake-run")  # the GPU workers run it from the same path
    backend.check(task, tools)  # e.g. the reference cubin, before anything is compiled
    # A resumed run keeps the budget it was started with (overrides given now win).
    budget = dict(task.budget, **config_before.get("budget", {}))
    for k in ("candidates", "gpu_evals", "wall_s", "generation", "screen"):
        if getattr(args, k) is not None:
            budget[k] = getattr(args, k)
    config = {"budget": budget, "jobs": args.jobs, "rng_seed": args.rng_seed, "tactics": args.tactics,
              "rules": rules}
    if name == "ray":  # kept for --resume
        config.update(ray)
    policy_name = run["policy"] if run else args.policy
    run_id = run["id"] if run else db.new_run(task, name, policy_name, config)
    if run:
        db.set_run_status(run_id, "running")
        with db.tx() as c:  # what this session runs under, for the next --resume
            c.execute("UPDATE runs SET config=? WHERE id=?", (json.dumps(config), run_id))
    rng = random.Random(args.rng_seed)
    tacs = [] if args.no_builtin_tactics else tactics_mod.builtin(tools)
    tacs += tactics_mod.load(args.tactics) if args.tactics else []
    stats = lambda: learn.tactic_stats(db, task.task_class)
    try:
        policy = (SearchPolicy(task, rng, tools, tacs, stats=stats) if policy_name == "search"
                  else LLMPolicy(task, rng, db, run_id))
    except LLMConfigError as e:
        db.set_run_status(run_id, "aborted", str(e))
        return _err(str(e), 2)
    workdir = args.workdir or default_workdir(args.db, run_id)
    print(f"run {run_id}: task {task.name} ({len(task.shapes)} shapes), policy {policy_name}, "
          f"{'resumed' if run else 'new'}; {backend.describe(tools)}", flush=True)
    if db.q("SELECT id FROM batches WHERE run_id=? AND status='exported'", (run_id,)):
        b = db.q("SELECT * FROM batches WHERE run_id=? AND status='exported'", (run_id,))[0]
        print(f"waiting for batch {b['id']} (generation {b['generation']}): run {b['dir']}/run_batch.py on the "
              f"GPU machine, then: cake batch-ingest --db {args.db} {b['dir']}/results.json")
        return 0
    progress = None if args.quiet else Progress(budget, measures=backend.measures)
    on_record = (lambda cid, ev: print(f"recorded {cid}", flush=True)) if args.print_records else None
    try:
        # The seed must pass here first, or the machine (not a candidate) is at fault.
        envcheck.check_seed(task, tools, backend, os.path.join(workdir, "env-check"))
        result = evolve(db, run_id, task, tools, backend, policy, workdir, budget, args.jobs, progress, on_record,
                        cache_dir=None if args.no_compile_cache else default_cache_dir(args.db))
    except PolicyAbort as e:
        db.set_run_status(run_id, "aborted", str(e))
        return _err(f"run {run_id} aborted: {e}", 3)
    except envcheck.EnvironmentFailure as e:  # nothing of it is recorded as a candidate failure
        db.set_run_status(run_id, "interrupted", _one_line(f"environment: {e}")[:300])
        return _err(_one_line(f"environment error: {e}")[:600] + f"; run {run_id} stopped, no candidate blamed; "
                    f"when fixed: cake evolve --db {args.db} --resume {run_id}", 7)
    except backends.NoDevice as e:
        db.set_run_status(run_id, "aborted", str(e))
        return _err(f"no GPU for the local backend ({e}); use --backend model-only or batch", 5)
    except KeyboardInterrupt:
        db.set_run_status(run_id, "interrupted")
        return _err(f"interrupted; continue with: cake evolve --db {args.db} --resume {run_id}", 130)
    except (disk.DiskFull, sqlite3.Error, OSError) as e:
        if isinstance(e, OSError) and e.errno not in disk.DISK_ERRNOS | disk.UNWRITABLE_ERRNOS:
            _mark_crashed(db, run_id, e)
            raise
        msg = _disk_message(e, args.db)
        try:  # where the database itself is full this fails too; the run then shows 'running'
            db.set_run_status(run_id, "interrupted", msg[:300])
        except sqlite3.Error:
            pass
        return _err(f"{msg}; run {run_id} stopped, committed records are intact; when there is space again: "
                    f"cake evolve --db {args.db} --resume {run_id}", 6)
    except Exception as e:  # a bug: its traceback follows, but the run must not stay 'running'
        _mark_crashed(db, run_id, e)
        raise
    finally:
        if progress:
            progress.close()
    if result.reason == "waiting_gpu":
        gen = db.q("SELECT MAX(generation) AS g FROM candidates WHERE run_id=?", (run_id,))[0]["g"]
        out = args.batch_dir or os.path.join(workdir, f"batch-gen{gen}")
        try:
            bid, jobs = batch.export(db, run_id, task, tools, out, gen, args.iters)
        except batch.BatchError as e:
            db.set_run_status(run_id, "interrupted", _one_line(f"batch export failed: {e}")[:300])
            return _err(f"{e}; run {run_id}'s generation {gen} is compiled and waiting: when that is fixed, "
                        f"cake batch-export --db {args.db} --run {run_id} --out {out}", 2)
        db.set_run_status(run_id, "waiting_gpu", f"batch {bid} exported")
        print(f"exported generation {gen} as batch {bid} ({len(jobs)} cake-run jobs) to {out}\n"
              f"on the GPU machine: python3 {out}/run_batch.py\n"
              f"then here: cake batch-ingest --db {args.db} {out}/results.json && "
              f"cake evolve --db {args.db} --resume {run_id}")
    else:
        db.set_run_status(run_id, "done", result.reason)
    print(summary.text(db, run_id))
    return 0


def _mark_crashed(db, run_id, e):
    try:
        db.set_run_status(run_id, "aborted", _one_line(f"internal error: {type(e).__name__}: {e}")[:300])
    except sqlite3.Error:
        pass


def _last_run_id(db, run):
    if run is not None:
        if db.run(run) is None:
            raise TaskError(f"no run {run} in {db.path}")
        return run
    last = db.last_run()
    if last is None:
        raise TaskError("the database holds no run")
    return last["id"]


def cmd_db(args):
    db = Database(args.db, readonly=True)
    q = args.question
    if q == "runs":
        for r in db.q("SELECT r.*, (SELECT COUNT(*) FROM candidates c WHERE c.run_id=r.id) AS n FROM runs r ORDER BY id"):
            print(f"run {r['id']}: {r['task']} backend {r['backend']} policy {r['policy']} {r['status']}"
                  f"{' (' + r['note'] + ')' if r['note'] else ''}, {r['n']} candidates")
    elif q == "best":
        rows = db.best_per_task()
        if not rows:
            print("no measured candidate in this database (model-only runs have no measured fitness)")
        for r in rows:
            print(f"{r['task']}: candidate {r['id']} (run {r['run_id']}) {r['fitness']:.4f} ms  {r['signature']}")
    elif q == "tactics":
        try:
            db = Database(args.db)  # the figures are rebuilt from the candidates (a write)
            learn.refresh_tactic_stats(db)
        except sqlite3.OperationalError as e:  # e.g. a read-only database: the figures its last generation stored
            db = Database(args.db, readonly=True)
            if not db.q("SELECT name FROM sqlite_master WHERE name='tactic_stats'"):
                print(f"no tactic statistics are stored in this database, and they cannot be computed into it ({e})")
                return 0
            print(f"(cannot update the figures in the database ({e}): these are as stored after its last generation)")
        rows = db.q("SELECT * FROM tactic_stats" + (" WHERE task_class=?" if args.task_class else "") +
                    " ORDER BY task_class, tactic", (args.task_class,) if args.task_class else ())
        if not rows:
            print("no tactic has been tried in this database")
        for r in rows:
            sp = f"{r['speedup_sum'] / r['speedup_n']:.3f}x over {r['speedup_n']}" if r["speedup_n"] else "-"
            print(f"{r['task_class']:<16} {r['tactic']:<22} tries {r['tries']:<4} ok {r['successes']:<4} speedup {sp}")
    elif q == "failures":
        rows = db.failures_by_class(args.id)
        if not rows:
            print("no failures recorded")
        for r in rows:
            print(f"{r['task']:<16} {r['class']:<20} {r['n']}")
    else:
        if args.id is None:
            return _err(f"db {q} needs a candidate id", 2)
        if db.candidate(args.id) is None:
            return _err(f"no candidate {args.id}", 2)
        if q == "lineage":
            for r in db.lineage(args.id):
                fit = f"{r['fitness']:.4f} ms" if r["fitness"] is not None else "-"
                print(f"candidate {r['id']} gen {r['generation']} {r['policy']} {r['signature']} "
                      f"{r['status']} {r['failure_class'] or ''} {fit}")
        elif q == "show":
            r = db.candidate(args.id)
            print(json.dumps(feedback.of(db, args.id), indent=1))
            if "note" in r.keys() and r["note"]:
                print(f"note: {r['note']}")
            print(r["ir"])
        else:
            print(feedback.text(feedback.of(db, args.id)))
    return 0


def cmd_report(args):
    db = Database(args.db, readonly=True)
    run_id = _last_run_id(db, args.run)
    out = args.output or f"report-run{run_id}.html"
    outputs.write_file(out, report.render(db, run_id), "-o", inputs=[args.db])
    print(summary.text(db, run_id))
    print(f"wrote {out}")
    return 0


def cmd_batch_export(args):
    db = Database(args.db)
    run_id = _last_run_id(db, args.run)
    task = load_task(db.run(run_id)["task_path"])
    try:
        bid, jobs = batch.export(db, run_id, task, Toolchain(args.bin, args.refs), args.out, iters=args.iters)
    except batch.BatchError as e:
        return _err(str(e), 2)
    print(f"exported batch {bid}: {len(jobs)} cake-run jobs in {args.out}; run: python3 {args.out}/run_batch.py")
    return 0


def cmd_batch_ingest(args):
    db = Database(args.db)
    try:
        s = batch.ingest(db, args.results, load_task)
    except batch.BatchError as e:
        return _err(str(e), 5 if "no_device" in str(e) else 2)
    print(f"batch {s['batch']} (run {s['run']}): {s['measured']} measured, {s['failed']} failed, "
          f"{s['skipped']} skipped; continue with: cake evolve --db {args.db} --resume {s['run']}")
    print(summary.text(db, s["run"]))
    return 0


def cmd_learn(args):
    import tempfile
    db = Database(args.db, readonly=True)
    cake_opt = Toolchain(args.bin).path("cake-opt")
    props = learn.propose(db, args.min_members, args.task_class, cake_opt)
    if not props:
        print("no failure cluster yields a rule (a feature in every failing member and in no passing candidate)")
        return 0
    if not learn.rules_supported(cake_opt):
        print(f"note: {cake_opt} has no --cake-load-rules: proposals are checked on their features only")
    work = args.workdir or tempfile.mkdtemp(prefix="cake-learn-")
    rules_dir = args.rules_dir or tools_mod.user_rules_dir()
    accepted, done = 0, set()
    for p in props:
        if p.key in done:  # one accepted rule per cluster
            continue
        ok, why = learn.accept(db, p, cake_opt, work)
        print(f"{'ACCEPT' if ok else 'reject'} {p.rule_id} ({p.feature}; cluster {'/'.join(k for k in p.key if k)}, "
              f"{len(p.members)} failing): {why}")
        if ok:
            accepted += 1
            done.add(p.key)
            if args.save:
                print(f"  saved {learn.save(p, db, args.save, rules_dir, cake_opt)}")
    print(f"{accepted} rule(s) accepted of {len(props)} proposals; rule files in "
          f"{rules_dir if args.save else work}")
    return 0


def cmd_throughput(args):
    from . import throughput
    return throughput.main(args)


def cmd_idioms(args):
    from . import idioms
    if args.max_len < args.min_len:
        return _err(f"--max-len {args.max_len} is below --min-len {args.min_len}", 2)
    db = Database(args.db, readonly=True)
    found, scope = idioms.mine(db, run=args.run, task=args.task, min_support=args.min_support,
                               min_len=args.min_len, max_len=args.max_len, dialects=args.dialects,
                               types=args.types, connected=args.connected, closed=not args.all,
                               cake_opt=Toolchain(args.bin).path("cake-opt"))
    if args.json:
        print(json.dumps({"scope": scope, "idioms": [i.as_dict() for i in found]}, indent=1))
    else:
        print(idioms.text(found, scope, args.top))
    return 0
