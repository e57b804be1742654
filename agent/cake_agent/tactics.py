"""Tactics: named IR rewrites with a precondition, applied as a cake-opt pass pipeline.

None ships yet: the rewrite passes (deepen the pipeline, TMA loads, warp specialization, ...) will be
C++ cake-opt passes. A tactics file (JSON list) plugs them in without changing the harness:

    [{"name": "widen-vectors", "pipeline": "builtin.module(cake-widen-vectors{width=4})",
      "requires_ops": ["cake.load"], "forbids_ops": ["cake.tma_load"]}]

``requires_ops`` / ``forbids_ops`` are the precondition, checked on the IR text before cake-opt runs; a
pass may also decline by failing or by leaving the IR unchanged, and the tactic then does not apply.
"""
import json
import os
import re
import tempfile

from .tools import run_step


class Tactic:
    """One named rewrite."""

    def __init__(self, name, pipeline, requires_ops=(), forbids_ops=()):
        if not name or not pipeline:
            raise ValueError("a tactic needs a name and a pipeline")
        self.name, self.pipeline = name, pipeline
        self.requires_ops, self.forbids_ops = tuple(requires_ops), tuple(forbids_ops)

    def precondition(self, ir):
        ops = set(re.findall(r"\b([a-z_]+\.[a-z_.]+)\b", ir))
        return all(o in ops for o in self.requires_ops) and not any(o in ops for o in self.forbids_ops)

    def apply(self, toolchain, ir, timeout=60):
        """The rewritten IR, or (None, reason) when the precondition, the pass or a no-op says no."""
        if not self.precondition(ir):
            return None, "precondition false"
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.mlir")
            with open(src, "w") as f:
                f.write(ir)
            res = run_step("tactic", [toolchain.path("cake-opt"), src, f"--pass-pipeline={self.pipeline}",
                                      "--mlir-print-op-on-diagnostic=false"], timeout)
        if not res.ok:
            return None, f"{res.failure_class}: {res.detail(200)}"
        if res.stdout.strip() == ir.strip():
            return None, "no change"
        return res.stdout, None


def load(path):
    """Tactics from a JSON file (a list of objects as in the module docstring)."""
    with open(path) as f:
        items = json.load(f)
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a JSON list of tactics")
    return [Tactic(t.get("name"), t.get("pipeline"), t.get("requires_ops", ()), t.get("forbids_ops", ()))
            for t in items]
