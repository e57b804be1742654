"""``cake report``: a static HTML page with inline SVG plots (no JavaScript).

Plots: fitness of every candidate with the best-so-far line, failure classes per generation,
per-shape median times of the first and the best candidate against the floor, predicted (cost model)
against measured time per candidate and shape (log-log, with the y = x line and the rank correlation),
and registers per candidate. Plots without data say so instead of drawing anything.
"""
import html
import json

from . import summary

W, H, PAD = 640, 240, 44


def _svg(body, title):
    return (f'<figure><svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" xmlns="http://www.w3.org/2000/svg" '
            f'font-family="sans-serif" font-size="11">{body}</svg><figcaption>{html.escape(title)}</figcaption></figure>')


def _axes(xlabel, ylabel):
    return (f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - 10}" y2="{H - PAD}" stroke="#333"/>'
            f'<line x1="{PAD}" y1="10" x2="{PAD}" y2="{H - PAD}" stroke="#333"/>'
            f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle">{html.escape(xlabel)}</text>'
            f'<text x="12" y="{H / 2}" transform="rotate(-90 12 {H / 2})" text-anchor="middle">{html.escape(ylabel)}</text>')


def _scale(lo, hi, a, b):
    span = (hi - lo) or 1.0
    return lambda v: a + (v - lo) / span * (b - a)


def scatter(points, line, xlabel, ylabel, title, empty):
    """points: [(x, y, colour)]; line: [(x, y)] drawn as a step line."""
    if not points:
        return f"<p class=empty>{html.escape(title)}: {html.escape(empty)}</p>"
    xs = [p[0] for p in points] + [p[0] for p in line]
    ys = [p[1] for p in points] + [p[1] for p in line]
    sx, sy = _scale(min(xs), max(xs), PAD + 6, W - 16), _scale(min(ys), max(ys), H - PAD - 6, 16)
    body = _axes(xlabel, ylabel)
    body += f'<text x="{PAD + 4}" y="14">{max(ys):.4g}</text><text x="{PAD + 4}" y="{H - PAD - 4}">{min(ys):.4g}</text>'
    for x, y, colour in points:
        body += f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>'
    if line:
        pts = []
        for i, (x, y) in enumerate(line):
            if i:
                pts.append(f"{sx(x):.1f},{sy(line[i - 1][1]):.1f}")
            pts.append(f"{sx(x):.1f},{sy(y):.1f}")
        body += f'<polyline points="{" ".join(pts)}" fill="none" stroke="#c00" stroke-width="1.5"/>'
    return _svg(body, title)


def bars(groups, series, title, empty, unit=""):
    """groups: [label]; series: [(name, colour, [value or None per group])]."""
    vals = [v for _, _, vs in series for v in vs if v is not None]
    if not groups or not vals:
        return f"<p class=empty>{html.escape(title)}: {html.escape(empty)}</p>"
    top = max(vals) or 1.0
    gw = (W - PAD - 20) / len(groups)
    bw = gw * 0.8 / len(series)
    body = _axes("", unit)
    for gi, g in enumerate(groups):
        x0 = PAD + 6 + gi * gw
        body += f'<text x="{x0 + gw * 0.4:.1f}" y="{H - PAD + 14}" text-anchor="middle">{html.escape(str(g))[:24]}</text>'
        for si, (name, colour, vs) in enumerate(series):
            v = vs[gi]
            if v is None:
                continue
            h = (H - PAD - 20) * v / top
            body += (f'<rect x="{x0 + si * bw:.1f}" y="{H - PAD - h:.1f}" width="{bw - 2:.1f}" height="{h:.1f}" '
                     f'fill="{colour}"><title>{html.escape(name)}: {v:.4g}</title></rect>')
    legend = "".join(f'<tspan fill="{c}">&#9632; {html.escape(n)}  </tspan>' for n, c, _ in series)
    body += f'<text x="{W - 10}" y="14" text-anchor="end">{legend}</text>'
    return _svg(body, title)


def _shape_times(db, cid, keyed=False):
    out = {}
    for m in db.measurements(cid):
        if m["status"] == "ok":
            shape = json.loads(m["shape"])
            key = (tuple(sorted((str(k), str(v)) for k, v in shape.items())) if keyed
                   else ",".join(f"{k}={v}" for k, v in shape.items()))
            out.setdefault(key, []).append((m["time_ms"], m["floor_ms"]))
    return {k: (sorted(v)[len(v) // 2][0], v[0][1]) for k, v in out.items()}


def predicted_vs_measured(db, run_id):
    """[(predicted_ms, measured_ms)] per measured candidate and shape with a cost prediction for it."""
    out = []
    rows = db.q("SELECT c.id, cr.report, cr.predicted_ms FROM candidates c JOIN cost_reports cr ON cr.candidate_id=c.id"
                " WHERE c.run_id=? AND cr.status='ok'", (run_id,))
    for r in rows:
        per_shape = {}
        reports = json.loads(r["report"] or "null") or []
        for rep in reports if isinstance(reports, list) else [reports]:
            ks = rep.get("kernels") if isinstance(rep, dict) else None
            for k in ks if isinstance(ks, list) else [rep]:
                if isinstance(k, dict) and isinstance(k.get("predicted_time_ms"), (int, float)) and k.get("sizes"):
                    per_shape[tuple(sorted((str(a), str(b)) for a, b in k["sizes"].items()))] = k["predicted_time_ms"]
        for shape, (med, _floor) in _shape_times(db, r["id"], keyed=True).items():
            pred = per_shape.get(shape)
            if pred is None and len(per_shape) <= 1:
                pred = r["predicted_ms"]
            if pred and med:
                out.append((pred, med))
    return out


def loglog(pairs, title, empty):
    """Scatter of (predicted, measured) on log axes with the y = x line."""
    import math
    if not pairs:
        return f"<p class=empty>{html.escape(title)}: {html.escape(empty)}</p>"
    lx = [math.log10(p) for p, _ in pairs]
    ly = [math.log10(m) for _, m in pairs]
    lo, hi = min(lx + ly), max(lx + ly)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    sx, sy = _scale(lo, hi, PAD + 6, W - 16), _scale(lo, hi, H - PAD - 6, 16)
    body = _axes("predicted ms (cost model, log)", "measured ms (log)")
    body += f'<line x1="{sx(lo):.1f}" y1="{sy(lo):.1f}" x2="{sx(hi):.1f}" y2="{sy(hi):.1f}" stroke="#c00" stroke-dasharray="4 3"/>'
    body += (f'<text x="{PAD + 4}" y="14">{10 ** hi:.3g}</text><text x="{PAD + 4}" y="{H - PAD - 4}">{10 ** lo:.3g}</text>'
             f'<text x="{W - 16}" y="{H - PAD + 14}" text-anchor="end">{10 ** hi:.3g}</text>')
    for x, y in zip(lx, ly):
        body += f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="#06c"/>'
    from .calibrate import spearman
    rho = spearman([p for p, _ in pairs], [m for _, m in pairs]) if len(pairs) > 2 else None
    within = sum(1 for p, m in pairs if max(p, m) / min(p, m) <= 2) / len(pairs)
    extra = f"; Spearman {rho:.2f}" if rho is not None else ""
    return _svg(body, f"{title} ({len(pairs)} points, {within:.0%} within 2x{extra}; dashed: y = x)")


def render(db, run_id):
    """The whole page as a string."""
    rows = db.candidates(run_id)
    f = summary.facts(db, run_id)
    parts = [f"<h1>CAKE run {run_id}: {html.escape(f['run']['task'])}</h1>",
             "<pre>" + html.escape(summary.text(db, run_id)) + "</pre>"]
    points, line, best = [], [], None
    for i, r in enumerate(rows):
        if r["fitness"] is not None:
            colour = "#06c" if r["fitness_kind"] == "measured_ms" else "#999"
            points.append((i, r["fitness"], colour))
            if best is None or r["fitness"] < best:
                best = r["fitness"]
            line.append((i, best))
    kind = "measured" if "measured_ms" in f["fitness_kinds"] else "predicted"
    parts.append(scatter(points, line, "candidate (order evaluated)", f"objective, ms ({kind})",
                         "Fitness per candidate and best so far",
                         "no candidate has a fitness (no GPU measurement and no cost model)"))
    gens = sorted({r["generation"] for r in rows})
    classes = sorted({r["failure_class"] for r in rows if r["failure_class"]})
    palette = ["#c33", "#e90", "#93c", "#396", "#666", "#09c", "#c6c", "#963"]
    series = [(c, palette[i % len(palette)], [sum(1 for r in rows if r["generation"] == g and r["failure_class"] == c)
                                              for g in gens]) for i, c in enumerate(classes)]
    parts.append(bars([f"gen {g}" for g in gens], series, "Failure classes per generation",
                      "no failures recorded", "candidates"))
    if f["best"] is not None and f["best"]["fitness_kind"] == "measured_ms":
        best_t, first_t = _shape_times(db, f["best"]["id"]), _shape_times(db, f["first"]["id"])
        shapes = list(best_t)
        parts.append(bars(shapes, [("first candidate", "#999", [first_t.get(s, (None,))[0] for s in shapes]),
                                   ("best", "#06c", [best_t[s][0] for s in shapes]),
                                   ("floor", "#c00", [best_t[s][1] for s in shapes])],
                          "Per-shape median time (ms)", "", "ms"))
    else:
        parts.append("<p class=empty>Per-shape times: no candidate was measured on a GPU in this run.</p>")
    parts.append(loglog(predicted_vs_measured(db, run_id), "Predicted vs measured time per candidate and shape",
                        "needs candidates with both a cost prediction and a GPU measurement"))
    regs = [(i, db.compile_facts(r["id"])["registers"], "#396") for i, r in enumerate(rows)
            if db.compile_facts(r["id"]) and db.compile_facts(r["id"])["registers"] is not None]
    parts.append(scatter(regs, [], "candidate", "registers per thread", "Registers (ptxas)", "nothing compiled"))
    def cell(v):
        return "" if v is None else html.escape(f"{v:.4f}" if isinstance(v, float) else str(v))
    table = "".join("<tr>" + "".join(f"<td>{cell(r[k])}</td>" for k in
                                     ("id", "generation", "signature", "status", "failure_class", "fitness"))
                    + "</tr>" for r in rows)
    parts.append("<h2>Candidates</h2><table><tr><th>id</th><th>gen</th><th>signature</th><th>status</th>"
                 f"<th>failure</th><th>fitness ms</th></tr>{table}</table>")
    style = ("body{font-family:sans-serif;max-width:900px;margin:2em auto}figure{margin:1em 0}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}"
             ".empty{color:#777;font-style:italic}")
    return f"<!doctype html><html><head><meta charset=utf-8><title>CAKE run {run_id}</title><style>{style}</style>" \
           f"</head><body>{''.join(parts)}</body></html>\n"
