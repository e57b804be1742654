"""The cost-model hook: ``cake-opt X --cake-print-cost="sizes=... json=-"`` printing a JSON cost report.

The harness probes cake-opt once; without the flag every candidate's cost is recorded as
``{"status": "unavailable"}`` and nothing is predicted. With it, the report (a JSON object on stdout
or stderr, optionally ``{"kernels": [...]}``) is stored whole, and ``predicted_ms`` is taken from the
first of ``predicted_time_ms``, ``predicted_ms``, ``time_ms`` or ``predicted_time_s`` x 1e3.
A report that assumed a data-dependent trip count (a loop over offsets read from memory, counted
once) gives no prediction: status ``partial`` (its per-shape figures in ``partial_ms``), no fitness
and no floor check (docs/Harness.md, "Evaluation"). ``CAKE_COST_ARGS`` gives the
arguments (split like a shell line); ``{sizes}`` in it becomes the shape as ``M=..,N=..``.
docs/CostModel.md describes the report.

Without ``CAKE_COST_ARGS``, all shapes are costed by one cake-opt process: the pass flag once per
shape (``--cake-print-cost=sizes=S1 json=- --cake-print-cost=sizes=S2 json=- ...``), which prints one
JSON report per shape on stdout, in order. That parses and verifies the candidate once instead of
once per shape (the reports are the same as from separate runs).
"""
import json
import os
import shlex
import time

from . import disk
from .tools import run_step

UNAVAILABLE = {"status": "unavailable", "predicted_ms": None, "report": None}


def _extract(text):
    text = (text or "").strip()
    start = text.find("{")
    if start < 0:
        return None
    try:
        doc = json.loads(text[start:])
    except json.JSONDecodeError:
        return None
    return doc if isinstance(doc, dict) else None


def predicted_ms(report):
    """The predicted time in ms from a cost report, or None."""
    body = report["kernels"][0] if isinstance(report.get("kernels"), list) and report["kernels"] else report
    for key, scale in (("predicted_time_ms", 1.0), ("predicted_ms", 1.0), ("time_ms", 1.0),
                       ("predicted_time_s", 1e3)):
        if isinstance(body.get(key), (int, float)):
            return body[key] * scale
    return None


def _documents(text):
    """The JSON objects printed one after another in ``text`` (anything else between them skipped)."""
    dec, docs, i = json.JSONDecoder(), [], 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return docs
        try:
            doc, end = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        if isinstance(doc, dict):
            docs.append(doc)
        i = end


def _sizes(shape):
    return ",".join(f"{k}={v}" for k, v in shape.items())


def blind_spots(report):
    """The report's assumptions that leave work out of its prediction: loops whose trip count depends
    on data (cake-print-cost counts them once: "the trip count of the loop at L depends on data:
    assumed 1"). A prediction with any is a fraction of the candidate's time, not a time."""
    body = report["kernels"][0] if isinstance(report.get("kernels"), list) and report["kernels"] else report
    return [a for a in body.get("assumptions") or []
            if isinstance(a, str) and "trip count" in a and "depends on data" in a]


def _summary(reports, objective=None):
    preds = [predicted_ms(r) for r in reports]
    blind = list(dict.fromkeys(a for r in reports for a in blind_spots(r)))
    if blind:  # neither a fitness nor something to hold against the floor: the model did not see the work
        return {"status": "partial", "predicted_ms": None, "per_shape_ms": None, "partial_ms": preds,
                "report": reports, "detail": "; ".join(blind)}
    if not preds or None in preds:
        pred = None
    elif objective is not None:
        pred = objective(preds)
    else:
        pred = sorted(preds)[len(preds) // 2]
    return {"status": "ok", "predicted_ms": pred, "per_shape_ms": preds, "report": reports}


def cost(toolchain, ir_path, shapes, timeout, run_dir=None, objective=None):
    """Cost of one candidate over the task's shapes: a dict {status, predicted_ms, per_shape_ms, report,
    seconds[, class, detail]}.

    ``predicted_ms`` is ``objective(per-shape predictions)`` (the task's objective: measure.objective),
    by default their median (None if any is missing).
    ``run_dir``: where the tool runs (a disk-full failure names it); ``seconds``: wall time.
    """
    if not toolchain.features()["cost_report"]:
        return dict(UNAVAILABLE)
    start = time.monotonic()
    if "CAKE_COST_ARGS" in os.environ or len(shapes) < 2:
        out = _cost_per_shape(toolchain, ir_path, shapes, timeout, run_dir, objective)
    else:
        out = _cost_one_process(toolchain, ir_path, shapes, timeout, run_dir, objective)
    out["seconds"] = round(time.monotonic() - start, 4)
    return out


def _cost_one_process(toolchain, ir_path, shapes, timeout, run_dir, objective):
    """Every shape in one cake-opt: one pass instance per shape, one report per shape on stdout."""
    flags = [f"{toolchain.COST_FLAG}=sizes={_sizes(s)} json=-" for s in shapes]
    argv = [toolchain.path("cake-opt"), ir_path] + flags + ["-o", os.devnull]
    res = run_step("cost", argv, timeout * len(shapes))
    disk.check_step(res, run_dir or os.path.dirname(ir_path))
    reports = _documents(res.stdout) if res.ok else []
    if len(reports) != len(shapes):
        return {"status": "error", "predicted_ms": None, "report": None,
                "class": res.failure_class or "cost_unparsed",
                "detail": res.detail() if not res.ok else f"{len(reports)} reports for {len(shapes)} shapes"}
    for shape, report in zip(shapes, reports):  # in order: each report says which sizes it is for
        body = report["kernels"][0] if isinstance(report.get("kernels"), list) and report["kernels"] else report
        got = body.get("sizes")
        if isinstance(got, dict) and {k: got.get(k) for k in shape} != dict(shape):
            return {"status": "error", "predicted_ms": None, "report": None, "class": "cost_unparsed",
                    "detail": f"report for sizes {got} where {shape} was asked"}
    return _summary(reports, objective)


def _cost_per_shape(toolchain, ir_path, shapes, timeout, run_dir, objective):
    # One argument: the pass's options, the report as JSON on stdout (remarks go to stderr).
    template = os.environ.get("CAKE_COST_ARGS", "'" + toolchain.COST_FLAG + "=sizes={sizes} json=-'")
    reports = []
    for shape in shapes:
        argv = [toolchain.path("cake-opt"), ir_path] + shlex.split(template.format(sizes=_sizes(shape))) + [
            "-o", os.devnull]
        res = run_step("cost", argv, timeout)
        disk.check_step(res, run_dir or os.path.dirname(ir_path))
        report = _extract(res.stdout) or _extract(res.stderr) if res.ok else None
        if report is None:
            return {"status": "error", "predicted_ms": None, "report": None,
                    "class": res.failure_class or "cost_unparsed", "detail": res.detail()}
        reports.append(report)
    return _summary(reports, objective)
