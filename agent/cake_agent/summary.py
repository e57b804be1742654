"""The terminal summary of a run (also the head of the HTML report)."""
import json


def _median(xs):
    xs = sorted(x for x in xs if x is not None)
    return xs[len(xs) // 2] if xs else None


def facts(db, run_id):
    """The numbers a summary shows, as a dict."""
    run = db.run(run_id)
    rows = db.candidates(run_id)
    status = {}
    for r in rows:
        status[r["status"]] = status.get(r["status"], 0) + 1
    fails = db.q("SELECT class, COUNT(*) AS n FROM failures WHERE run_id=? GROUP BY class ORDER BY n DESC", (run_id,))
    steps = {}
    for r in rows:
        for s in json.loads(r["steps"] or "[]"):
            if s["status"] == "ok" and s["seconds"] is not None:
                steps.setdefault(s["step"], []).append(s["seconds"])
    times = [r["created"] for r in rows]
    rate = (len(times) - 1) / (max(times) - min(times)) if len(times) > 2 and max(times) > min(times) else None
    kinds = {r["fitness_kind"] for r in rows if r["fitness"] is not None}
    ranked = sorted((r for r in rows if r["fitness"] is not None), key=lambda r: r["fitness"])
    return {"run": run, "n": len(rows), "status": status, "failures": [(f["class"], f["n"]) for f in fails],
            "step_median_s": {k: _median(v) for k, v in steps.items()}, "rate": rate,
            "fitness_kinds": sorted(kinds), "best": ranked[0] if ranked else None, "first": rows[0] if rows else None}


def text(db, run_id):
    """A few lines for the terminal."""
    f = facts(db, run_id)
    run = f["run"]
    lines = [f"run {run['id']}: task {run['task']}, backend {run['backend']}, policy {run['policy']}, "
             f"status {run['status']}" + (f" ({run['note']})" if run["note"] else ""),
             f"candidates {f['n']}: " + ", ".join(f"{k} {v}" for k, v in sorted(f["status"].items()))]
    if f["failures"]:
        lines.append("failures: " + ", ".join(f"{c} {n}" for c, n in f["failures"]))
    med = f["step_median_s"]
    if med:
        lines.append("median step time: " + ", ".join(f"{k} {v:.3f} s" for k, v in med.items() if v is not None)
                     + (f"; {f['rate']:.2f} candidates recorded/s (wall)" if f["rate"] else ""))
    best = f["best"]
    if best is None:
        partial = db.q("SELECT COUNT(*) AS n FROM cost_reports cr JOIN candidates c ON c.id=cr.candidate_id"
                       " WHERE c.run_id=? AND cr.status='partial'", (run_id,))[0]["n"]
        if run["backend"] == "model-only" and partial:
            lines.append(f"fitness: none. No GPU, and the cost model's predictions of {partial} candidates are partial "
                         "(a loop's trip count depends on data: counted once), so they are neither fitness nor held "
                         "against the floor: candidates were verified and compiled only; nothing is ranked "
                         "(measure them with --backend local or batch).")
        elif run["backend"] == "model-only":
            lines.append("fitness: none. No GPU and no cost model: candidates were verified and compiled only; "
                         "nothing is ranked (measure them with --backend local or batch).")
        else:
            lines.append("fitness: none yet (no candidate measured correct on every shape)")
    else:
        kind = "measured" if best["fitness_kind"] == "measured_ms" else "PREDICTED by the cost model, not measured"
        cf = db.compile_facts(best["id"])
        regs = f"; registers {cf['registers']}, spills {cf['spill_stores']}, smem {cf['smem_bytes']} B" if cf else ""
        lines.append(f"best: candidate {best['id']} ({best['signature']}) {best['fitness']:.4f} ms ({kind}){regs}")
        first = f["first"]
        if first["fitness"] is not None and first["id"] != best["id"]:
            lines.append(f"first recorded candidate {first['id']}: {first['fitness']:.4f} ms -> "
                         f"{first['fitness'] / best['fitness']:.2f}x")
    return "\n".join(lines)
