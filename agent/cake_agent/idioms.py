"""``cake idioms``: frequent op sequences in the IR of passing candidates, as candidate new primitives.

Each passing candidate's IR (status ``compiled`` or ``measured``; one per distinct IR hash, across the
runs asked for) is read into blocks of ops: an op with regions (``scf.for``, ``cake.warp_roles``)
is one op of its block, and each of its regions' blocks is a block of its own. Ops of the chosen
dialects (``--dialects``, default ``cake``) form each block's sequences; ops of other dialects are
left out (so "consecutive" means consecutive among the chosen dialects' ops of one block), except
that one with regions (``scf.for``, ``scf.if``) ends a sequence: the ops around a loop do not run
one after the other.
Every window of ``min_len``..``max_len`` consecutive ops of a sequence becomes a pattern with its
operands abstracted: an operand produced by an earlier op of the window is ``$i`` (``$i.k`` for its
k-th result), any other operand is ``_``; with ``types`` the op's types are part of it too, with
numbers replaced by ``N`` (so ``!cake.smem<16x64xf32>`` and ``<32x64xf32>`` match).

Support is the number of distinct candidates containing the pattern; patterns with support >=
``min_support`` are ranked by support x length (ties: connected ones first, where every op after the
first uses a result of an earlier one). A pattern inside a longer reported one with the
same support says nothing more and is left out (``closed=False`` keeps it). Each idiom lists the
tasks it was seen in and one occurrence (candidate, lines, text) to start a primitive from.
"""
import re

_OP_START = re.compile(r'''^(?P<res>%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*\s*=\s*)?
                           (?P<name>"[A-Za-z_][\w$]*\.[\w.$]+"|[A-Za-z_][\w$]*\.[\w.$]+)(?=[\s(<{\[]|$)''', re.X)
_VALUE = re.compile(r"%([\w$.\-]+)(?:#(\d+))?")
_NUMBER = re.compile(r"(?<![\w$#%@])\d+|(?<=x)\d+")
PASSING = ("compiled", "measured", "screened")


class Op:
    """One op: name, results (names), operand uses [(name, result index)], text, first line, regions."""

    def __init__(self, name, results, line):
        self.name, self.results, self.line = name, results, line
        self.text, self.regions, self.last_line = "", [], line

    @property
    def dialect(self):
        return self.name.split(".", 1)[0]


def _strip_comment(line):
    out, in_str = [], False
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        elif not in_str and line.startswith("//", i):
            break
        out.append(ch)
        i += 1
    return "".join(out).rstrip()


def _depth_change(text):
    """Net open brackets ( [ { < in ``text`` (strings, '->', '>=', '<=' ignored)."""
    depth, in_str, i = 0, False, 0
    while i < len(text):
        ch = text[i]
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            in_str = not in_str
        elif not in_str:
            two = text[i:i + 2]
            if two in ("->", ">=", "<="):
                i += 2
                continue
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                depth -= 1
        i += 1
    return depth


def _results(res):
    """'%a, %b:2 = ' -> [('a', 0), ('b', 0), ('b', 1)] as (name, index) pairs of the op's results."""
    out = []
    for part in (res or "").rstrip().rstrip("=").split(","):
        part = part.strip()
        if not part:
            continue
        name, _, count = part[1:].partition(":")
        n = int(count) if count else 1
        out.extend((name, k) for k in range(n)) if n > 1 else out.append((name, None))
    return out


def _opens_region(line):
    """Whether a statement line ends by opening a region: '... {' with its brackets balanced (or the
    generic form's '({')."""
    if not line.endswith("{"):
        return False
    change = _depth_change(line[:-1])
    return change == 0 or (change == 1 and line.endswith("({"))


def parse(ir):
    """The top-level block of ``ir``: a list of Ops (with nested region blocks), by a tolerant reader
    of MLIR's text form (custom or generic syntax); lines it does not understand are skipped."""
    top = []
    stack = [(None, top)]  # (owner op, current block)
    cur, depth = None, 0  # the op whose statement may continue on the next line, its open brackets

    def open_region(op):
        block = []
        op.regions.append([block])
        stack.append((op, block))

    for lineno, raw in enumerate(ir.splitlines(), 1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if cur is not None and (depth > 0 or not (_OP_START.match(line) or line.startswith(("}", "^")))):
            cur.text += " " + line  # a continuation line of the open statement
            cur.last_line = lineno
            if depth == 0 and _opens_region(line) or depth > 0 and line.endswith("{") and \
                    depth + _depth_change(line[:-1]) == 0:
                open_region(cur)
                cur = None
            else:
                depth += _depth_change(line)
            continue
        cur, depth = None, 0
        while line.startswith("}"):  # a region ends; the rest belongs to its owner ("} else {")
            owner = stack.pop()[0] if len(stack) > 1 else None
            line = line[1:].lstrip(" )").strip()
            if owner is not None and line.endswith("{") and _depth_change(line[:-1]) <= 0:
                open_region(owner)
                line = ""
        if not line:
            continue
        if line.startswith("^"):  # a block label: a new block of the current region
            owner, block = stack[-1]
            if owner is not None and block:
                block = []
                owner.regions[-1].append(block)
                stack[-1] = (owner, block)
            continue
        m = _OP_START.match(line)
        if not m:
            continue
        op = Op(m.group("name").strip('"'), _results(m.group("res")), lineno)
        op.text = line
        stack[-1][1].append(op)
        if _opens_region(line):
            open_region(op)
        else:
            cur, depth = op, _depth_change(line)
    return top


def _blocks(ops):
    """Every block: ``ops`` and, recursively, each op's regions' blocks."""
    yield ops
    for op in ops:
        for region in op.regions:
            for block in region:
                yield from _blocks(block)


def _uses(op):
    """The values an op uses, in order, as (name, result index or None) (its results excluded)."""
    text = op.text
    m = _OP_START.match(text)
    rest = text[m.end():] if m else text
    out = []
    for v in _VALUE.finditer(rest):
        after = rest[v.end():v.end() + 3]
        if after.lstrip().startswith("=") or after.startswith(":"):  # a definition: %iv = ..., %arg: type
            continue
        out.append((v.group(1), int(v.group(2)) if v.group(2) else None))
    return out


def _types(op):
    """The op's trailing type list (after the last top-level ' : '), numbers abstracted."""
    text, depth, cut = op.text.rstrip("{").rstrip(), 0, -1
    i = 0
    while i < len(text):
        two = text[i:i + 2]
        if two in ("->", ">=", "<="):
            i += 2
            continue
        ch = text[i]
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == ":" and depth == 0 and text[i - 1:i] == " " and text[i + 1:i + 2] == " ":
            cut = i
        i += 1
    return _NUMBER.sub("N", text[cut + 1:].strip()) if cut >= 0 else ""


def _pattern(window, types):
    """The abstract key of a window of ops, and whether it is connected (each op uses an earlier one)."""
    defined, parts, connected = {}, [], True
    for i, op in enumerate(window):
        args = [defined.get(use, "_") for use in _uses(op)]
        if i and all(a == "_" for a in args):
            connected = False
        key = f"{op.name}({','.join(args)})" + ("{}" * len(op.regions))
        if types:
            t = _types(op)
            key += f" : {t}" if t else ""
        parts.append(key)
        multi = any(idx is not None for _, idx in op.results)
        for name, idx in op.results:
            defined[(name, idx)] = f"${i}.{idx}" if multi else f"${i}"
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


def mine(db, run=None, task=None, min_support=3, min_len=2, max_len=5, dialects="cake", types=False,
         connected=False, closed=True):
    """The frequent idioms (best first) and a description of what was mined."""
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
        for seq in (q for block in _blocks(parse(row["ir"])) for q in _sequences(block, every, wanted)):
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
                        first, last = window[0].line, max(o.last_line for o in window)
                        idiom.example = {"candidate": row["id"], "lines": [first, last],
                                         "text": [lines[o.line - 1].strip() for o in window]}
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
        out.append(f"       e.g. candidate {ex['candidate']} lines {ex['lines'][0]}-{ex['lines'][1]}:")
        out.extend("         " + t[:150] for t in ex["text"])
    if len(idioms) > top:
        out.append(f"... {len(idioms) - top} more (--top, --json)")
    return "\n".join(out)
