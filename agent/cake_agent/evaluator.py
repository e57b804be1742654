"""The evaluator: verify -> cost -> compile (-> shape check) for one candidate, on the CPU.

Measurement is the backend's job (backends.py). Every step has the task's timeout; a failing,
hung or crashing step ends the candidate with a failure class and the caller goes on.
"""
import hashlib
import json
import os

from . import cost as cost_mod
from . import diagnostics, expr, ptxas
from .tools import run_step


def ir_hash(ir):
    return hashlib.sha256(ir.encode()).hexdigest()


class Evaluation:
    """Everything known about one candidate; stored by db.Database.record()."""

    def __init__(self, ir, workdir):
        self.ir = ir
        self.ir_hash = ir_hash(ir)
        self.dir = os.path.join(workdir, self.ir_hash[:16])
        self.status = "new"  # compiled | pending_gpu | measured | failed
        self.failure = None  # {"step", "class", "detail"}
        self.diagnostics = []
        self.cost = dict(cost_mod.UNAVAILABLE)
        self.compile = None  # ptxas facts + cubin/manifest paths + seconds
        self.steps = []  # [{"step", "status", "seconds"}]
        self.measurements = []
        self.fitness = None
        self.fitness_kind = None  # "measured_ms" | "predicted_ms" | None

    def fail(self, step, cls, detail):
        self.status = "failed"
        self.failure = {"step": step, "class": cls, "detail": (detail or "")[:2000]}

    @property
    def ir_path(self):
        return os.path.join(self.dir, "kernel.mlir")


class Evaluator:
    """Runs the CPU steps of a task's candidates with a Toolchain."""

    def __init__(self, task, toolchain, workdir):
        self.task, self.tools, self.workdir = task, toolchain, workdir

    def prepare(self, ir):
        """verify, cost, compile and check the manifest against the task's shapes."""
        ev = Evaluation(ir, self.workdir)
        os.makedirs(ev.dir, exist_ok=True)
        with open(ev.ir_path, "w") as f:
            f.write(ir)
        if self._verify(ev) and self._cost(ev) and self._compile(ev):
            self._check_shapes(ev)
        if ev.status == "new":
            ev.status = "compiled"
        return ev

    def _step(self, ev, res):
        ev.steps.append({"step": res.step, "status": res.status, "seconds": round(res.seconds, 4)})
        return res

    def _verify(self, ev):
        json_mode = self.tools.features()["diagnostics_json"]
        argv = [self.tools.path("cake-opt"), ev.ir_path, "-o", os.devnull,
                "--mlir-print-op-on-diagnostic=false"]
        if json_mode:
            argv.append(self.tools.DIAG_FLAG)
        res = self._step(ev, run_step("verify", argv, self.task.timeouts["verify"]))
        ev.diagnostics = diagnostics.parse(res.stdout, res.stderr, json_mode)
        if not res.ok:
            errs = [d for d in ev.diagnostics if d["severity"] == "error"]
            ev.fail("verify", res.failure_class,
                    "\n".join(diagnostics.compact(errs)) if errs and res.status == "error" else res.detail())
            return False
        return True

    def _cost(self, ev):
        ev.cost = cost_mod.cost(self.tools, ev.ir_path, self.task.shapes, self.task.timeouts["cost"])
        if ev.cost["status"] != "unavailable":
            ev.steps.append({"step": "cost", "status": ev.cost["status"], "seconds": None})
        return True  # a cost-model failure is recorded, never fatal for the candidate

    def _compile(self, ev):
        cubin, manifest, log = (os.path.join(ev.dir, n) for n in ("kernel.cubin", "kernel.json", "ptxas.txt"))
        argv = [self.tools.path("cake-translate"), ev.ir_path, "--emit=cubin", "-o", cubin,
                "--manifest", manifest, "--ptxas-log", log]
        res = self._step(ev, run_step("compile", argv, self.task.timeouts["compile"]))
        if not res.ok:
            diags = diagnostics.parse_text(res.stderr)
            ev.fail("compile", res.failure_class,
                    "\n".join(diagnostics.compact(diags)) if diags and res.status == "error" else res.detail())
            return False
        try:
            with open(log) as f:
                facts = ptxas.parse(f.read(), self.task.kernel)
            with open(manifest) as f:
                man = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            ev.fail("compile", "compile_output", f"unreadable compiler output: {e}")
            return False
        kernels = man.get("kernels") or [{}]
        kernel = next((k for k in kernels if k.get("entry") == self.task.kernel), kernels[0])
        # ptxas sees only static shared memory; the kernel's allocations are dynamic (manifest).
        facts["smem_bytes"] = (facts["smem_bytes"] or 0) + int(kernel.get("dynamic_shared_bytes") or 0)
        ev.compile = dict(facts, seconds=round(res.seconds, 4), cubin=cubin, manifest=manifest,
                          entry=kernel.get("entry"), block=kernel.get("block"),
                          static_shared_bytes=kernel.get("static_shared_bytes"),
                          symbols=kernel.get("symbols"), constraints=kernel.get("constraints", []))
        return True

    def _check_shapes(self, ev):
        """Every task shape must name the kernel's symbols and satisfy its manifest constraints."""
        symbols = set(ev.compile.get("symbols") or [])
        for shape in self.task.shapes:
            if set(shape) != symbols:
                ev.fail("shape", "shape_symbols", f"shape {shape} does not match the kernel's symbols {sorted(symbols)}")
                return
            for c in ev.compile["constraints"]:
                try:
                    holds = expr.evaluate(c.replace(" floordiv ", " // ").replace(" mod ", " % "), shape)
                except expr.ExprError:
                    continue  # an expression form we do not evaluate: cake-run will check it
                if not holds:
                    ev.fail("shape", "shape_constraint", f"manifest constraint '{c}' is false for {shape}")
                    return
