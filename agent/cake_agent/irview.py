"""The IR as a structure: cake-opt's JSON view of it (``--cake-print-ir-json``, schema "cake-ir" v1,
docs/reference/CakeAnalysisPasses.md), never the MLIR text read with regular expressions.

The view comes from the Python bindings (``Module.to_json()``, docs/Embedding-Python.md) where they
are importable, else from a cake-opt process: that is the default, and what an outside agent has.
Both read the IR under the name SOURCE, so op locations (``line``) are lines of the IR as given.

``read`` gives the view itself; ``remembered`` gives something derived from it (tactics' op names,
learn's features), kept for the last 512 IRs per reader, so that a question asked again and again of
the same IR costs one process.
"""
import collections
import hashlib
import json
import os
import tempfile
import threading

from .tools import ToolMissing, bindings, run_step

SOURCE = "in.mlir"
SCHEMA, VERSION = "cake-ir", 1


class Memo:
    """The last ``size`` answers by key (thread-safe): ``get(key, compute)`` returns the remembered
    answer, else ``compute()``'s; compute returns (answer, keep), and an answer that came from a
    timeout (which may not recur) is given but not kept."""

    def __init__(self, size=512):
        self.size, self._answers, self._lock = size, collections.OrderedDict(), threading.Lock()

    def clear(self):
        with self._lock:
            self._answers.clear()

    def get(self, key, compute):
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        answer, keep = compute()
        if keep:
            with self._lock:
                self._answers[key] = answer
                while len(self._answers) > self.size:
                    self._answers.popitem(last=False)
        return answer


_DERIVED = Memo()


def forget():
    """Drops what ``remembered`` kept."""
    _DERIVED.clear()


def _bindings():
    """The ``cake`` bindings when importable and they have the JSON view, else None."""
    return bindings("Module.to_json")


def _checked(doc):
    """``doc`` if it is the schema this module reads, else None."""
    ok = isinstance(doc, dict) and doc.get("schema") == SCHEMA and doc.get("version") == VERSION \
        and isinstance(doc.get("ops"), list)
    return doc if ok else None


def from_bindings(cake, ir):
    """The view of ``ir`` through the bindings module ``cake``, None when it does not parse."""
    try:
        return _checked(cake.parse(ir, SOURCE).to_json())
    except cake.CakeError:
        return None


def from_cake_opt(cake_opt, ir, timeout=60):
    """(the view of ``ir`` printed by a cake-opt process, None when it cannot read the IR; whether
    that answer may be kept: not after a timeout). Raises ToolMissing without cake-opt."""
    if not cake_opt:
        raise _missing("cake-opt")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, SOURCE)
        try:
            with open(src, "w") as f:
                f.write(ir)
        except OSError as e:  # a full disk or a file size limit: say which file
            raise OSError(e.errno, e.strerror, src) from e
        # Run where the file is, named SOURCE, so that locations name it as the bindings do.
        res = run_step("ir-view", [_executable(cake_opt), SOURCE, "--cake-print-ir-json", "-o", os.devnull],
                       timeout, cwd=d)
    if res.status == "missing" or "Unknown command line argument '--cake-print-ir-json'" in res.stderr:
        raise _missing(cake_opt)
    if not res.ok:
        return None, res.status != "timeout"
    try:
        return _checked(json.loads(res.stdout)), True
    except ValueError:
        return None, True


def _missing(cake_opt):
    """The error for a cake-opt that is absent, or too old to print the view."""
    return ToolMissing(f"missing tool binary: {cake_opt} with --cake-print-ir-json, which reads the IR's "
                       "structure (build it: ./scripts/build.sh, or pass --bin DIR)")


def _executable(cake_opt):
    """``cake_opt`` as a path that still holds in another working directory (a bare name is
    looked up on PATH)."""
    return os.path.abspath(cake_opt) if cake_opt and os.sep in cake_opt else cake_opt


def _reader(cake_opt):
    """What reads the IR: the bindings, else cake-opt (answers are remembered per reader)."""
    return "bindings" if _bindings() is not None else _executable(cake_opt)


def _read(ir, cake_opt, timeout):
    """(the view or None, whether the answer may be kept)."""
    cake = _bindings()
    if cake is not None:
        return from_bindings(cake, ir), True
    return from_cake_opt(cake_opt, ir, timeout)


def read(ir, cake_opt, timeout=60):
    """The structured view of ``ir`` ({"schema", "version", "ops"}), or None when it does not parse
    (or its ops do not verify). Raises ToolMissing when neither the bindings nor cake-opt are there."""
    return _read(ir, cake_opt, timeout)[0]


def remembered(what, derive, ir, cake_opt, timeout=60):
    """``derive(view)`` (``derive(None)`` for IR that cannot be read), remembered per ``what``,
    reader and IR."""
    def compute():
        view, keep = _read(ir, cake_opt, timeout)
        return derive(view), keep
    return _DERIVED.get((what, _reader(cake_opt), hashlib.sha256(ir.encode()).hexdigest()), compute)


def walk(ops):
    """Every op of ``ops`` (a view's or a block's), outer before inner, in the order of the IR."""
    for op in ops:
        yield op
        for region in op["regions"]:
            for block in region:
                yield from walk(block["ops"])


def value_types(view):
    """{value id: type} for every op result and block argument of the view."""
    out = {}
    for op in walk(view["ops"]):
        out.update((r["id"], r["type"]) for r in op["results"])
        out.update((a["id"], a["type"]) for region in op["regions"] for block in region for a in block["arguments"])
    return out


def line(op):
    """The line of ``op`` in the IR as given, None when its location is elsewhere (a ``loc(...)``
    written in the IR) or unknown."""
    loc = op.get("loc")
    return loc["line"] if loc and loc.get("file") == SOURCE else None
