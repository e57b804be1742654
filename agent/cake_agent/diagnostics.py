"""Compiler diagnostics in one compact, structured form: {rule, severity, line, col, op, message, hint}.

Two sources: the machine form (``--cake-diagnostics=json``: one JSON record per finding, as a JSON
array or one object per line, with rule id, severity, location, op, message, notes, fix hint), used
when cake-opt has it; and MLIR's human form (``file:line:col: error: ...``), whose records have no
rule id or hint (``rule`` is None) but keep the op named in ``'cake.load' op ...`` messages.
"""
import json
import re

TEXT_DIAG = re.compile(r"^(?P<file>[^:\n]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|remark|note): "
                       r"(?P<msg>.*)$", re.M)
OP_PREFIX = re.compile(r"^'(?P<op>[\w.]+)' op (?P<rest>.*)$")


def parse_text(stderr):
    """Parses MLIR's human diagnostics; notes are dropped (cake-opt runs without op dumps)."""
    out = []
    for m in TEXT_DIAG.finditer(stderr or ""):
        if m.group("sev") == "note":
            continue
        msg, op = m.group("msg").strip(), None
        pm = OP_PREFIX.match(msg)
        if pm:
            op, msg = pm.group("op"), pm.group("rest")
        out.append({"rule": None, "severity": m.group("sev"), "line": int(m.group("line")),
                    "col": int(m.group("col")), "op": op, "message": msg, "hint": None})
    return out


def parse_json(text):
    """Parses the machine form; returns None when ``text`` holds no diagnostic records."""
    records = []
    text = (text or "").strip()
    if not text:
        return None
    try:
        doc = json.loads(text)
        items = doc if isinstance(doc, list) else doc.get("diagnostics", [doc])
    except (json.JSONDecodeError, AttributeError):
        items = []
        for line in text.splitlines():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    for d in items:
        if not isinstance(d, dict) or "message" not in d:
            continue
        loc = d.get("location") or {}
        records.append({"rule": d.get("rule") or d.get("rule_id") or d.get("id"),
                        "severity": d.get("severity", "error"),
                        "line": d.get("line", loc.get("line") if isinstance(loc, dict) else None),
                        "col": d.get("col", loc.get("col", loc.get("column")) if isinstance(loc, dict) else None),
                        "op": d.get("op") or d.get("op_name"), "message": d["message"],
                        "hint": d.get("hint") or d.get("fix_hint") or d.get("fix")})
    return records if records else None


def parse(stdout, stderr, json_mode):
    """The findings of one cake-opt run (machine form first when enabled, else the human form)."""
    if json_mode:
        for text in (stderr, stdout):
            recs = parse_json(text)
            if recs:
                return recs
    return parse_text(stderr)


def compact(diags, limit=5):
    """Short lines for feedback: ``line 31: [rule] 'op': message (hint: ...)``."""
    lines = []
    for d in diags[:limit]:
        rule = f"[{d['rule']}] " if d.get("rule") else ""
        op = f"'{d['op']}' " if d.get("op") else ""
        hint = f" (hint: {d['hint']})" if d.get("hint") else ""
        lines.append(f"line {d.get('line')}: {d['severity']} {rule}{op}{d['message']}{hint}")
    if len(diags) > limit:
        lines.append(f"... {len(diags) - limit} more")
    return lines
