"""The cost-model hook: ``cake-opt X --cake-print-cost="sizes=... json=-"`` printing a JSON cost report.

The harness probes cake-opt once; without the flag every candidate's cost is recorded as
``{"status": "unavailable"}`` and nothing is predicted. With it, the report (a JSON object on stdout
or stderr, optionally ``{"kernels": [...]}``) is stored whole, and ``predicted_ms`` is taken from the
first of ``predicted_time_ms``, ``predicted_ms``, ``time_ms`` or ``predicted_time_s`` x 1e3.
``CAKE_COST_ARGS`` gives the arguments (split like a shell line); ``{sizes}`` in it becomes the
shape as ``M=..,N=..``. docs/CostModel.md describes the report.
"""
import json
import os
import shlex

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


def cost(toolchain, ir_path, shapes, timeout):
    """Cost of one candidate over the task's shapes: a dict {status, predicted_ms, report[, detail]}.

    ``predicted_ms`` is the median over shapes of the per-shape prediction (None if any is missing).
    """
    if not toolchain.features()["cost_report"]:
        return dict(UNAVAILABLE)
    # One argument: the pass's options, the report as JSON on stdout (remarks go to stderr).
    template = os.environ.get("CAKE_COST_ARGS", "'" + toolchain.COST_FLAG + "=sizes={sizes} json=-'")
    reports, preds = [], []
    for shape in shapes:
        sizes = ",".join(f"{k}={v}" for k, v in shape.items())
        argv = [toolchain.path("cake-opt"), ir_path] + shlex.split(template.format(sizes=sizes)) + ["-o", os.devnull]
        res = run_step("cost", argv, timeout)
        report = _extract(res.stdout) or _extract(res.stderr) if res.ok else None
        if report is None:
            return {"status": "error", "predicted_ms": None, "report": None,
                    "class": res.failure_class or "cost_unparsed", "detail": res.detail()}
        reports.append(report)
        preds.append(predicted_ms(report))
    pred = sorted(preds)[len(preds) // 2] if preds and None not in preds else None
    return {"status": "ok", "predicted_ms": pred, "report": reports}
