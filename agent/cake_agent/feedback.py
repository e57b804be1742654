"""Compact, structured feedback about a candidate for a policy: never raw tool dumps.

One dict per candidate: status, failure class and a few diagnostic lines (line + op/rule + hint),
registers/spills/shared bytes, per-shape median times against the floor, the fitness.
"""
import json

from . import diagnostics


def of(db, cid):
    """Feedback for candidate ``cid`` as a dict of short fields."""
    row = db.candidate(cid)
    fb = {"candidate": cid, "status": row["status"], "failure_class": row["failure_class"],
          "fitness_ms": row["fitness"], "signature": row["signature"]}
    diags = [dict(d) for d in db.diagnostics(cid)]
    if diags:
        fb["diagnostics"] = diagnostics.compact(diags)
    fail = db.q("SELECT step, class, detail FROM failures WHERE candidate_id=? LIMIT 1", (cid,))
    if fail and not diags:
        fb["failure"] = f"{fail[0]['step']}: {fail[0]['class']}: " + "\n".join(
            (fail[0]["detail"] or "").strip().splitlines()[:4])[:400]
    facts = db.compile_facts(cid)
    if facts:
        fb["compile"] = {k: facts[k] for k in ("registers", "spill_stores", "spill_loads", "smem_bytes")}
    times = {}
    for m in db.measurements(cid):
        key = ",".join(f"{k}={v}" for k, v in json.loads(m["shape"]).items())
        if m["status"] == "ok":
            times.setdefault(key, []).append((m["time_ms"], m["floor_ms"]))
        else:
            fb.setdefault("runtime_failures", []).append(f"{key}: {m['status']}")
    if times:
        fb["times_ms"] = {k: {"median": sorted(v)[len(v) // 2][0], "floor": round(v[0][1], 6)}
                          for k, v in times.items()}
    return fb


def text(fb):
    """The feedback dict as a few lines of text for a prompt."""
    return "\n".join(f"{k}: {json.dumps(v) if not isinstance(v, str) else v}" for k, v in fb.items()
                     if v is not None)
