"""Tactics: named IR rewrites with a precondition, applied as a cake-opt pass pipeline.

The shipped ones (``builtin(toolchain)``) are what ``cake-opt --cake-list-tactics`` lists: the
cake-tactic-* passes of lib/Transforms with their option presets and preconditions, declared once
in the tactics' records (include/Cake/Transforms/Tactics/*.td). A tactics file (JSON list) adds others without changing the
harness:

    [{"name": "widen-vectors", "pipeline": "builtin.module(cake-widen-vectors{width=4})",
      "requires_ops": ["cake.load"], "forbids_ops": ["cake.tma.load"]}]

``order()`` ranks tactics by their statistics per task class (learn.py), so what worked on earlier
tasks of the class (or of any class, for a new one) is tried first.

``requires_ops`` / ``forbids_ops`` are the precondition, checked on the IR's structured view (irview.py)
before the pass runs; a pass may also decline by failing or by leaving the IR unchanged, and the
tactic then does not apply.

``apply`` remembers its answers (per cake-opt, pipeline and IR hash; the last 512, timeouts not kept),
and the input as cake-opt prints it (compared with each tactic's output): the search asks again and
again whether a tactic applies to the same parent, and each answer costs two cake-opt processes.
"""
import hashlib
import json
import os
import tempfile

from . import irview
from .tools import ToolMissing, run_step


_MEMO = irview.Memo(512)


def forget():
    """Drops the remembered answers of ``Tactic.apply`` and the op names of the IRs it saw."""
    _MEMO.clear()
    irview.forget()


def _printed(toolchain, ir, path, timeout):
    """``ir`` as cake-opt prints it (None if it cannot), remembered: every tactic tried on the same
    parent compares its output with this."""
    def compute():
        res = run_step("tactic", [toolchain.path("cake-opt"), path], timeout)
        return (res.stdout if res.ok else None), res.status != "timeout"
    return _MEMO.get((toolchain.path("cake-opt"), "print", hashlib.sha256(ir.encode()).hexdigest()), compute)


def _names(view):
    return None if view is None else {op["name"] for op in irview.walk(view["ops"])}


def _op_names(toolchain, ir, timeout=60):
    """The names of the ops in ``ir``, read from its structured view (irview), remembered per IR;
    None when it cannot be read (cake-opt missing included: the pass then reports that)."""
    try:
        return irview.remembered("op names", _names, ir, toolchain.path("cake-opt"), timeout)
    except ToolMissing:
        return None


class Tactic:
    """One named rewrite."""

    def __init__(self, name, pipeline, requires_ops=(), forbids_ops=()):
        if not name or not pipeline:
            raise ValueError("a tactic needs a name and a pipeline")
        self.name, self.pipeline = name, pipeline
        self.requires_ops, self.forbids_ops = tuple(requires_ops), tuple(forbids_ops)

    def precondition(self, toolchain, ir):
        """Whether ``ir`` has every op the tactic requires and none it forbids (the op names from
        cake-opt's structured view of the IR); true when cake-opt cannot read the IR, so that the
        pass itself reports why."""
        ops = _op_names(toolchain, ir)
        if ops is None:
            return True
        return all(o in ops for o in self.requires_ops) and not any(o in ops for o in self.forbids_ops)

    def apply(self, toolchain, ir, timeout=60):
        """(The rewritten IR, None), or (None, reason) when the precondition, the pass or a no-op says no."""
        if not self.precondition(toolchain, ir):
            return None, "precondition false"
        def compute():
            out = self._apply(toolchain, ir, timeout)
            return out, not (out[1] or "").startswith("tactic_timeout")
        return _MEMO.get((toolchain.path("cake-opt"), self.pipeline, hashlib.sha256(ir.encode()).hexdigest()),
                         compute)

    def _apply(self, toolchain, ir, timeout):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.mlir")
            try:
                with open(src, "w") as f:
                    f.write(ir)
            except OSError as e:  # a full disk or a file size limit: say which file
                raise OSError(e.errno, e.strerror, src) from e
            res = run_step("tactic", [toolchain.path("cake-opt"), src, f"--pass-pipeline={self.pipeline}",
                                      "--mlir-print-op-on-diagnostic=false"], timeout)
            if not res.ok:
                return None, f"{res.failure_class}: {self._reason(res)}"
            if res.stdout.strip() == ir.strip():
                return None, "no change"
            # cake-opt prints its own form: compare with the input as cake-opt prints it.
            same = _printed(toolchain, ir, src, timeout)
        if same is not None and same.strip() == res.stdout.strip():
            return None, "no change"
        return res.stdout, None

    @staticmethod
    def _reason(res):
        """The pass's own explanation ("[tactic.not-applicable] ...") when it gave one."""
        for line in (res.stderr or "").splitlines():
            if "[tactic.not-applicable]" in line:
                return line[line.index("[tactic.not-applicable]"):][:300]
        return res.detail(200)


def load(path):
    """Tactics from a JSON file (a list of objects as in the module docstring)."""
    with open(path) as f:
        items = json.load(f)
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a JSON list of tactics")
    return [Tactic(t.get("name"), t.get("pipeline"), t.get("requires_ops", ()), t.get("forbids_ops", ()))
            for t in items]


# The rewrites cake-opt ships (lib/Transforms/Tactic*.cpp). Each pass checks its own preconditions
# and fails ("[tactic.not-applicable] ...") or leaves the IR unchanged when it cannot apply; the
# op lists here only avoid starting cake-opt when the pass certainly has nothing to do.
def builtin(toolchain):
    """The shipped tactics, as this cake-opt lists them (``cake-opt --cake-list-tactics``: the one
    registry, from the tactics' records under include/Cake/Transforms/Tactics/). A cake-opt without the flag, or one that fails,
    gives none: the search then runs on tunables alone."""
    res = run_step("probe", [toolchain.path("cake-opt"), "--cake-list-tactics"], timeout=30)
    if not res.ok:
        return []
    try:
        listed = json.loads(res.stdout)["tactics"]
    except (ValueError, KeyError, TypeError):
        return []
    return [Tactic(t["name"], t["pipeline"], t.get("requires_ops", ()), t.get("forbids_ops", ()))
            for t in listed]


def score(stats):
    """How promising a tactic looks from its statistics {tries, successes, mean_speedup}: the
    success rate (with one pseudo-success and one pseudo-failure, so untried tactics get 0.5) times
    the mean speedup of children over parents (1 when none was measured or predicted)."""
    if not stats:
        return 0.5
    rate = (stats["successes"] + 1) / (stats["tries"] + 2)
    return rate * (stats.get("mean_speedup") or 1.0)


def order(tactics, stats, rng=None, explore=0.2):
    """Tactics, most promising first by ``stats`` ({name: {...}}); with probability ``explore``
    (or without statistics) a random order."""
    tactics = list(tactics)
    if rng is not None:
        rng.shuffle(tactics)  # random tie-break
        if not stats or rng.random() < explore:
            return tactics
    return sorted(tactics, key=lambda t: -score(stats.get(t.name)))
