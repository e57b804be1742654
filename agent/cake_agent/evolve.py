"""The evolution loop: propose -> evaluate (CPU steps in parallel, GPU steps in order) -> record.

Budgets (task ``budget``, overridable on the command line) are counted from the database, so
``--resume`` continues where a run stopped: ``candidates`` (evaluated candidates), ``gpu_evals``
(candidates sent to a GPU), ``wall_s`` (this invocation's wall time). Every finished candidate is
committed before the next is reported; ``on_record(cid, ev)`` is called after each commit.

A generation's candidates are verified, costed and compiled by the backend's compiler: ``jobs``
threads here, each running the tools as subprocesses (so up to ``jobs`` cake-opt / cake-translate /
ptxas processes at once), or every CPU of a Ray cluster (ray_backend.py). The backend measures
them (here: one GPU job at a time in the main thread; ray: one job per GPU of the cluster) and the
main thread records each in the order measurements finish. When anything raises (a full disk:
disk.DiskFull; an interrupt), evaluations not yet started are cancelled and the exception
propagates; what was committed stays.
"""
import concurrent.futures
import os
import time

from . import learn, population
from .envcheck import EnvironmentFailure
from .evaluator import Evaluator, ir_hash


class RunResult:
    def __init__(self, run_id, reason, recorded):
        self.run_id, self.reason, self.recorded = run_id, reason, recorded


def _count(db, run_id, where):
    return db.q(f"SELECT COUNT(*) AS n FROM candidates WHERE run_id=? AND {where}", (run_id,))[0]["n"]


def evolve(db, run_id, task, toolchain, backend, policy, workdir, budget, jobs=2, progress=None,
           on_record=None, batch_dir=None, cache_dir=None):
    """Runs generations until a budget is spent, the space is exhausted or (batch) a GPU is needed."""
    pool = backend.compiler(Evaluator(task, toolchain, workdir, cache_dir), jobs)
    try:
        return _generations(db, run_id, task, toolchain, backend, policy, budget, progress, on_record, pool)
    finally:
        pool.shutdown()


def _generations(db, run_id, task, toolchain, backend, policy, budget, progress, on_record, pool):
    start = time.monotonic()
    recorded = 0
    while True:
        n_cand = _count(db, run_id, "1")
        n_gpu = _count(db, run_id, "status IN ('measured','pending_gpu') OR (status='failed' AND "
                       "id IN (SELECT candidate_id FROM measurements))")
        if _count(db, run_id, "status='pending_gpu'"):
            return RunResult(run_id, "waiting_gpu", recorded)
        if n_cand >= budget["candidates"]:
            return RunResult(run_id, "budget_candidates", recorded)
        if backend.measures and n_gpu >= budget["gpu_evals"]:
            return RunResult(run_id, "budget_gpu_evals", recorded)
        if time.monotonic() - start >= budget["wall_s"]:
            return RunResult(run_id, "budget_wall_s", recorded)
        members = population.load(db, run_id)
        generation = max((m.generation for m in members), default=-1) + 1
        want = min(int(budget["generation"]), budget["candidates"] - n_cand)
        if backend.measures:
            want = min(want, budget["gpu_evals"] - n_gpu)
        # With a GPU backend and a cost model, `screen` proposals per GPU slot are verified, costed
        # and compiled here; only the `want` with the least predicted time go to the GPU.
        screening = backend.measures and toolchain.features()["cost_report"]
        screen = int(budget.get("screen", 1)) if screening else 1
        proposals = policy.propose(members, min(want * screen, budget["candidates"] - n_cand))
        # (PolicyAbort propagates: the caller stops the run.)
        hashes = {r["ir_hash"] for r in db.q("SELECT ir_hash FROM candidates WHERE run_id=?", (run_id,))}
        fresh = []
        for p in proposals:
            h = ir_hash(p.ir)
            if h not in hashes:
                hashes.add(h)
                fresh.append(p)
        if not fresh:
            return RunResult(run_id, "exhausted", recorded)
        futures = {pool.submit(p.ir): p for p in fresh}
        chosen = None
        if screen > 1:  # every evaluation first, then the GPU slots by predicted time
            concurrent.futures.wait(list(futures))
            chosen = {id(ev) for ev in screen_by_prediction([f.result() for f in futures], want)}
        # In proposal order when a parent must be recorded before its children (and after a screen,
        # as before); otherwise in the order measurements finish.
        ordered = chosen is not None or any(getattr(p, "parent_proposal", None) for p in fresh)
        screened = lambda ev: chosen is not None and ev.status == "compiled" and id(ev) not in chosen  # noqa: E731
        cids, infra_failures = {}, 0
        for prop, ev in backend.measured(task, toolchain, futures, screened, ordered):
            parent = getattr(prop, "parent_proposal", None)
            if parent is not None:
                prop.parent_id = cids.get(id(parent))  # None if the parent was already recorded
            if ev.failure and learn.is_infrastructure(ev.failure["class"]):
                infra_failures += 1
            cid = db.record(run_id, generation, ev, prop, backend.name)
            cids[id(prop)] = cid
            recorded += 1
            if on_record:
                on_record(cid, ev)
            if progress:
                progress.update(db, run_id, generation)
        learn.refresh_tactic_stats(db)  # what the tactics achieved, for this run and later ones
        if infra_failures == len(fresh):  # the tools or the machine broke mid-run: stop, blame no one
            raise EnvironmentFailure(f"every candidate of generation {generation} failed for the tools' or the "
                                     f"machine's reasons (e.g. {ev.failure['class']}: {ev.failure['detail'][:200]})")
        if backend.name == "batch":
            return RunResult(run_id, "waiting_gpu", recorded)


def screen_by_prediction(evaluations, slots):
    """The compiled evaluations that get the GPU: the ``slots`` with the least predicted time (the
    ones without a prediction last, in proposal order)."""
    compiled = [ev for ev in evaluations if ev.status == "compiled"]
    ranked = sorted(compiled, key=lambda ev: (ev.cost.get("predicted_ms") is None,
                                               ev.cost.get("predicted_ms") or 0.0))
    return ranked[:slots]


def default_workdir(db_path, run_id):
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), "cake-agent-work", f"run{run_id}")


def default_cache_dir(db_path):
    """The compile cache shared by every run of a database (evaluator.CompileCache)."""
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), "cake-agent-work", "compile-cache")
