"""``cake idioms``: frequent op sequences in the IR of passing candidates, as candidate new primitives.

Each passing candidate's IR (status ``compiled`` or ``measured``; one per distinct IR hash, across the
runs asked for) is read from its structured view (irview.py: cake-opt --cake-print-ir-json, or the
bindings) into blocks of ops: an op with regions (``scf.for``, ``cake.warp_roles``)
is one op of its block, and each of its regions' blocks is a block of its own. Ops of the chosen
dialects (``--dialects``, default ``cake``) form each block's sequences; ops of other dialects are
left out (so "consecutive" means consecutive among the chosen dialects' ops of one block), except
that one with regions (``scf.for``, ``scf.if``) ends a sequence: the ops around a loop do not run
one after the other.
Every window of ``min_len``..``max_len`` consecutive ops of a sequence becomes a pattern with its
operands abstracted: an operand produced by an earlier op of the window is ``$i`` (``$i.k`` for its
k-th result), any other operand is ``_``; with ``types`` the op's types are part of it too, as the
generic form writes them (``(operand types) -> result types``), with numbers replaced by ``N`` (so
``!cake.smem<16x64xf32>`` and ``<32x64xf32>`` match).

Support is the number of distinct candidates containing the pattern; patterns with support >=
``min_support`` are ranked by support x length (ties: connected ones first, where every op after the
first uses a result of an earlier one). A pattern inside a longer reported one with the
same support says nothing more and is left out (``closed=False`` keeps it). Each idiom lists the
tasks it was seen in and one occurrence (candidate, lines, text) to start a primitive from.
"""
import re

from . import irview

# Text as text: abstracts the numbers inside a printed type (the view prints types as MLIR does).
_NUMBER = re.compile(r"(?<![\w$#%@])\d+|(?<=x)\d+")
PASSING = ("compiled", "measured", "screened")


class Op:
    """One op: name, result and operand value ids, first line (None when unknown), its types as
    ``(operand types) -> result types``, regions (each a list of blocks, each a list of Ops)."""

    def __init__(self, name, results, operands, line, types, regions):
        self.name, self.results, self.operands, self.line = name, results, operands, line
        self.types, self.regions = types, regions

    @property
    def dialect(self):
        return self.name.split(".", 1)[0]


def _signature(node, types_of):
    """The op's function type as the generic form writes it, ``(A, B) -> R``, numbers abstracted."""
    ins = ", ".join(types_of.get(v, "?") for v in node["operands"])
    outs = [r["type"] for r in node["results"]]
    return _NUMBER.sub("N", f"({ins}) -> " + (outs[0] if len(outs) == 1 else f"({', '.join(outs)})"))


def _written(op, parent):
    """Whether ``op`` is written in the IR: the parser gives a terminator it adds (an elided
    ``scf.yield``) its parent's location, and the IR's text, which idioms describe, does not show it.
    (Only locations in the IR as given tell: a ``loc(...)`` written in the IR may repeat.)"""
    return irview.line(op) is None or op["loc"] != parent["loc"]


def _op(node, types_of):
    """The Op of one op of the structured view (``types_of``: {value id: type}); a region with no
    block (``scf.if`` without ``else``) is not written, so not counted."""
    regions = [[[_op(inner, types_of) for inner in block["ops"] if _written(inner, node)] for block in region]
               for region in node["regions"] if region]
    return Op(node["name"], [r["id"] for r in node["results"]], list(node["operands"]), irview.line(node),
              _signature(node, types_of), regions)


def parse(ir, cake_opt=None):
    """The top-level block of ``ir``: a list of Ops (with nested region blocks), read from its
    structured view (irview: the bindings, else ``cake_opt``); [] for IR that cannot be read."""
    view = irview.read(ir, cake_opt)
    if view is None:
        return []
    types_of = irview.value_types(view)
    return [_op(node, types_of) for node in view["ops"]]


def _blocks(ops):
    """Every block: ``ops`` and, recursively, each op's regions' blocks."""
    yield ops
    for op in ops:
        for region in op.regions:
            for block in region:
                yield from _blocks(block)


def _pattern(window, types):
    """The abstract key of a window of ops, and whether it is connected (each op uses an earlier one)."""
    defined, parts, connected = {}, [], True
    for i, op in enumerate(window):
        args = [defined.get(v, "_") for v in op.operands]
        if i and all(a == "_" for a in args):
            connected = False
        key = f"{op.name}({','.join(args)})" + ("{}" * len(op.regions))
        parts.append(key + (f" : {op.types}" if types else ""))
        multi = len(op.results) > 1
        for k, v in enumerate(op.results):
            defined[v] = f"${i}.{k}" if multi else f"${i}"
    return tuple(parts), connected


def _sequences(block, every, wanted):
    """The block's runs of chosen-dialect ops: other ops are skipped, but one with regions (scf.for,
    scf.if) ends a run, since the ops on either side of it are not consecutive in execution."""
    run = []
    for op in block:
        if every or op.dialect in wanted:
            run.append(op)
        elif op.regions:
            if run:
                yield run
            run = []
    if run:
        yield run


class Idiom:
    def __init__(self, pattern, connected):
        self.pattern, self.connected = pattern, connected
        self.candidates, self.tasks, self.example = set(), set(), None

    @property
    def support(self):
        return len(self.candidates)

    @property
    def score(self):
        return self.support * len(self.pattern)

    def as_dict(self):
        return {"pattern": list(self.pattern), "length": len(self.pattern), "support": self.support,
                "score": self.score, "connected": self.connected, "tasks": sorted(self.tasks),
                "candidates": sorted(self.candidates), "example": self.example}


def _contains(longer, shorter):
    n = len(shorter)
    return any(longer[i:i + n] == shorter for i in range(len(longer) - n + 1))


def _example(candidate, lines, window):
    """One occurrence: the candidate, the lines its first and last op start on (None where the IR's
    locations name another file), and the first source line of each op."""
    known = [o.line for o in window if o.line]
    return {"candidate": candidate, "lines": [window[0].line, max(known)] if window[0].line else None,
            "text": [lines[o.line - 1].strip() if o.line else o.name for o in window]}


def mine(db, run=None, task=None, min_support=3, min_len=2, max_len=5, dialects="cake", types=False,
         connected=False, closed=True, cake_opt=None):
    """The frequent idioms (best first) and a description of what was mined; ``cake_opt`` reads the
    IR where the bindings are not installed (irview)."""
    sql = ("SELECT c.id, c.ir, c.ir_hash, r.task FROM candidates c JOIN runs r ON r.id = c.run_id WHERE c.status IN"
           f" ({','.join('?' * len(PASSING))})")
    params = list(PASSING)
    if run is not None:
        sql, params = sql + " AND c.run_id = ?", params + [run]
    if task:
        sql, params = sql + " AND r.task = ?", params + [task]
    rows = db.q(sql + " ORDER BY c.id", params)
    every = dialects.strip() in ("*", "all", "")
    wanted = {d.strip() for d in dialects.split(",") if d.strip()}
    found, seen = {}, set()
    for row in rows:
        if row["ir_hash"] in seen:
            continue
        seen.add(row["ir_hash"])
        lines = row["ir"].splitlines()
        for seq in (q for block in _blocks(parse(row["ir"], cake_opt)) for q in _sequences(block, every, wanted)):
            for n in range(max(1, min_len), max_len + 1):
                for i in range(len(seq) - n + 1):
                    window = seq[i:i + n]
                    key, conn = _pattern(window, types)
                    if connected and not conn:
                        continue
                    idiom = found.get(key)
                    if idiom is None:
                        idiom = found[key] = Idiom(key, conn)
                    if row["id"] not in idiom.candidates and idiom.example is None:
                        idiom.example = _example(row["id"], lines, window)
                    idiom.candidates.add(row["id"])
                    idiom.tasks.add(row["task"])
    frequent = [i for i in found.values() if i.support >= min_support]
    if closed:
        frequent = [i for i in frequent if not any(
            len(j.pattern) > len(i.pattern) and j.support == i.support and _contains(j.pattern, i.pattern)
            for j in frequent)]
    frequent.sort(key=lambda i: (-i.score, not i.connected, -len(i.pattern), i.pattern))
    scope = {"candidates": len(seen), "rows": len(rows), "run": run, "task": task, "min_support": min_support,
             "lengths": [min_len, max_len], "dialects": "*" if every else sorted(wanted), "types": types,
             "connected_only": connected, "closed": closed}
    return frequent, scope


def text(idioms, scope, top=20):
    where = (f"run {scope['run']}" if scope["run"] is not None else "every run") + (
        f", task {scope['task']}" if scope["task"] else "")
    head = (f"{scope['candidates']} passing candidates (distinct IR; {where}); sequences of "
            f"{scope['lengths'][0]}-{scope['lengths'][1]} consecutive ops of "
            f"{'every dialect' if scope['dialects'] == '*' else '/'.join(scope['dialects'])} in a block, "
            f"support >= {scope['min_support']}{', with types' if scope['types'] else ''}")
    if not idioms:
        return head + "\nno idiom reaches that support"
    out = [head, f"{len(idioms)} idioms; ranked by support x length:"]
    for k, i in enumerate(idioms[:top], 1):
        out.append(f"{k:>3}. support {i.support} x length {len(i.pattern)} = {i.score}"
                   f"{'' if i.connected else ' (not connected)'}; tasks {', '.join(sorted(i.tasks))}")
        out.append("       " + " ; ".join(i.pattern))
        ex = i.example
        where = f" lines {ex['lines'][0]}-{ex['lines'][1]}" if ex["lines"] else ""
        out.append(f"       e.g. candidate {ex['candidate']}{where}:")
        out.extend("         " + t[:150] for t in ex["text"])
    if len(idioms) > top:
        out.append(f"... {len(idioms) - top} more (--top, --json)")
    return "\n".join(out)
