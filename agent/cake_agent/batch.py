"""The batch backend's two halves: export a generation for a GPU machine, ingest its results.

The exported folder is self-contained: kernels/ (cubins + manifests), refs/ (reference cubins),
inputs/ (the task's generated inputs, docs/Tasks.md), the cake-run binary, plan.json (one cake-run
command line per candidate x shape, each with a fresh seed) and run_batch.py (python3 only). The
plan is also kept in the database; ingestion judges every record against *that* copy (shape, seed,
cubin) with measure.judge, so an edited plan or a record for something else is caught
(``mismatch``), and a time below the floor is ``suspicious_fast``.
"""
import json
import os
import shutil
import time

from . import inputs, measure

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "batch_runner.py")


class BatchError(RuntimeError):
    """Export or ingestion cannot proceed (the message says why)."""


def export(db, run_id, task, toolchain, out_dir, generation=None, iters=50):
    """Writes the folder for every candidate of ``run_id`` waiting for a GPU; returns (batch id, jobs)."""
    rows = db.q("SELECT c.id, f.cubin, f.manifest FROM candidates c JOIN compile_facts f ON f.candidate_id=c.id"
                " WHERE c.run_id=? AND c.status='pending_gpu' ORDER BY c.id", (run_id,))
    if not rows:
        raise BatchError(f"run {run_id} has no candidate waiting for a GPU")
    ref = task.reference_path(toolchain.refs_dir)
    if ref is None:
        raise BatchError(f"reference cubin '{task.reference}' not found (task folder or {toolchain.refs_dir})")
    cake_run = toolchain.path("cake-run")
    if not os.path.isfile(cake_run):
        raise BatchError(f"missing tool binary: {cake_run} (the batch folder must carry cake-run)")
    os.makedirs(os.path.join(out_dir, "kernels"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "refs"), exist_ok=True)
    ref_rel = os.path.join("refs", os.path.basename(ref))
    shutil.copy2(ref, os.path.join(out_dir, ref_rel))
    shutil.copy2(cake_run, os.path.join(out_dir, "cake-run"))
    shutil.copy2(RUNNER, os.path.join(out_dir, "run_batch.py"))
    generated = {}  # shape index -> {name: path relative to out_dir} (the task's generated inputs)
    for i in range(len(task.shapes)):
        paths = inputs.write(task, i, os.path.join(out_dir, "inputs"))
        generated[i] = {n: os.path.relpath(p, out_dir) for n, p in paths.items()}
    jobs = []
    for row in rows:
        cubin, manifest = f"kernels/c{row['id']}.cubin", f"kernels/c{row['id']}.json"
        try:
            shutil.copy2(row["cubin"], os.path.join(out_dir, cubin))
            shutil.copy2(row["manifest"], os.path.join(out_dir, manifest))
        except OSError as e:
            raise BatchError(f"candidate {row['id']}: compiled files are gone ({e}); re-run the generation") from None
        for i, shape in enumerate(task.shapes):
            seed = measure.fresh_seed()
            args = measure.run_argv("cake-run", cubin, manifest, ref_rel, task, shape, seed, iters,
                                    generated[i])[1:]
            jobs.append({"job": len(jobs), "candidate": row["id"], "sizes": measure.sizes_arg(shape),
                         "shape": shape, "seed": seed, "cubin": cubin, "args": args,
                         "timeout": task.timeouts["run"] + 60})
    gen = generation if generation is not None else db.q(
        "SELECT MAX(generation) AS g FROM candidates WHERE run_id=?", (run_id,))[0]["g"]
    with db.tx() as c:
        c.execute("UPDATE batches SET status='superseded' WHERE run_id=? AND status='exported'", (run_id,))
        bid = c.execute("INSERT INTO batches (run_id, generation, dir, plan, status, created) VALUES (?,?,?,?,?,?)",
                        (run_id, gen, os.path.abspath(out_dir), json.dumps(jobs), "exported", time.time())).lastrowid
    with open(os.path.join(out_dir, "plan.json"), "w") as f:
        json.dump({"run": run_id, "generation": gen, "batch": bid, "task": task.name, "jobs": jobs}, f, indent=1)
    os.chmod(os.path.join(out_dir, "run_batch.py"), 0o755)
    return bid, jobs


def ingest(db, results_path, load_task):
    """Stores the measurements of a results.json; returns a summary dict. ``load_task(path)`` -> Task."""
    try:
        with open(results_path) as f:
            results = json.load(f)
        bid = results["batch"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BatchError(f"{results_path}: not a batch results file ({e})") from None
    rows = db.q("SELECT * FROM batches WHERE id=?", (bid,))
    if not rows:
        raise BatchError(f"{results_path}: batch {bid} is not in this database")
    batch = rows[0]
    if batch["status"] != "exported":
        raise BatchError(f"batch {bid} is {batch['status']}: its results are not expected any more")
    run = db.run(batch["run_id"])
    task = load_task(run["task_path"])
    plan = json.loads(batch["plan"])
    by_job = {r.get("job"): r for r in results.get("results", []) if isinstance(r, dict)}
    records = [by_job.get(j["job"]) for j in plan]
    if records and all(r and r.get("record") and r["record"].get("status") == "no_device" for r in records):
        raise BatchError("every record says no_device: the batch ran on a machine without a GPU; nothing ingested")
    per_cand = {}
    for job, res in zip(plan, records):
        rec = (res or {}).get("record")
        m = measure.judge(task, job["shape"], job["seed"], rec, (res or {}).get("stderr_tail"))
        if rec is not None and m["status"] not in ("mismatch",) and rec.get("cubin") != job["cubin"]:
            m["status"], m["detail"] = "mismatch", f"record is for cubin {rec.get('cubin')}, planned {job['cubin']}"
        m["machine"] = (rec or {}).get("device")
        per_cand.setdefault(job["candidate"], []).append(m)
    summary = {"batch": bid, "run": run["id"], "measured": 0, "failed": 0, "skipped": 0}
    for cid, ms in per_cand.items():
        row = db.candidate(cid)
        if row is None or row["status"] != "pending_gpu" or any(m["status"] == "no_device" for m in ms):
            summary["skipped"] += 1
            continue
        bad = next((m for m in ms if m["status"] != "ok"), None)
        failure = {"class": bad["status"], "detail": f"{measure.sizes_arg(bad['shape'])} seed {bad['seed']}: "
                   f"{bad['detail']}"} if bad else None
        fit = None if bad else measure.fitness(task, ms)
        db.complete_measurement(run["id"], cid, ms, "batch", "failed" if bad else "measured", fit, failure)
        summary["failed" if bad else "measured"] += 1
    with db.tx() as c:
        c.execute("UPDATE batches SET status='ingested' WHERE id=?", (bid,))
        c.execute("UPDATE runs SET status='paused', note=? WHERE id=?",
                  (f"batch {bid} ingested; --resume continues", run["id"]))
    return summary
