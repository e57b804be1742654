"""Evaluation backends: where (and whether) candidates are measured.

- ``model-only``: no GPU. Fitness is the cost model's prediction when cake-opt has one; otherwise
  there is none: candidates are verified and compiled only, and nothing is ranked.
- ``local``: cake-run on this machine's GPU, each task shape with a fresh seed, against the reference.
- ``batch``: candidates that compile wait for a GPU elsewhere; after each generation the harness
  exports them (batch.py) and stops until the results are ingested.
"""
import os
import shutil

from . import measure
from .task import TaskError
from .tools import run_step


class NoDevice(RuntimeError):
    """cake-run found no GPU: the local backend cannot go on."""


def require_reference(task, toolchain, backend):
    """Raises TaskError (exit 2) when the task's reference cubin is nowhere to be found: checked before
    anything is compiled, not when the first candidate (or a whole exported generation) needs it."""
    if task.reference_path(toolchain.refs_dir) is None:
        where = [task.dir] + ([toolchain.refs_dir] if not os.path.isabs(task.reference) else [])
        raise TaskError(f"reference cubin '{task.reference}' not found (looked in {' and '.join(where)}): "
                        f"the {backend} backend checks every candidate against it; a build with nvcc makes "
                        f"build/examples/ref/*_ref.cubin, or --refs DIR names the folder that has it")


def gpu_present():
    """A cheap guess whether this machine has an NVIDIA GPU (device node or nvidia-smi)."""
    return os.path.exists("/dev/nvidia0") or shutil.which("nvidia-smi") is not None


class ModelOnly:
    name = "model-only"
    measures = False

    def describe(self, toolchain):
        if toolchain.features()["cost_report"]:
            return "model-only backend: no GPU; fitness = the cost model's predicted time (not a measurement)"
        return ("model-only backend: no GPU and no cost model in this cake-opt (no --cake-print-cost): "
                "candidates are verified and compiled only; there is no fitness and nothing is ranked")

    def check(self, task, toolchain):
        """Nothing to check: this backend runs nothing on a GPU."""

    def measure(self, task, toolchain, ev):
        if ev.status == "compiled" and ev.cost.get("predicted_ms") is not None:
            ev.fitness, ev.fitness_kind = ev.cost["predicted_ms"], "predicted_ms"


class Local:
    name = "local"
    measures = True

    def __init__(self, iters=50):
        self.iters = iters

    def describe(self, toolchain):
        return "local backend: cake-run on this machine's GPU, fresh seeds, every shape, against the reference"

    def check(self, task, toolchain):
        require_reference(task, toolchain, self.name)

    def measure(self, task, toolchain, ev):
        if ev.status != "compiled":
            return
        ref = task.reference_path(toolchain.refs_dir)
        if ref is None:
            ev.fail("run", "reference_missing", f"reference cubin '{task.reference}' not found "
                    f"(task folder or {toolchain.refs_dir})")
            return
        for shape in task.shapes:
            seed = measure.fresh_seed()
            argv = measure.run_argv(toolchain.path("cake-run"), ev.compile["cubin"], ev.compile["manifest"],
                                    ref, task, shape, seed, self.iters)
            res = run_step("run", argv, task.timeouts["run"] + 30)
            m = measure.judge(task, shape, seed, measure.parse_record(res.stdout),
                              res.detail() if not res.ok else None)
            if m["status"] == "no_device":
                raise NoDevice(f"cake-run: {m['detail']}")
            ev.measurements.append(m)
            if m["status"] != "ok":
                ev.fail("run", m["status"], f"{measure.sizes_arg(shape)} seed {seed}: {m['detail']}")
                return
        ev.status = "measured"
        ev.fitness = measure.fitness(task, ev.measurements)
        ev.fitness_kind = "measured_ms" if ev.fitness is not None else None


class Batch:
    name = "batch"
    measures = True

    def describe(self, toolchain):
        return ("batch backend: each generation is compiled here and exported for a GPU machine; "
                "ingest its results, then --resume")

    def check(self, task, toolchain):
        require_reference(task, toolchain, self.name)

    def measure(self, task, toolchain, ev):
        if ev.status == "compiled":
            ev.status = "pending_gpu"


def make(name, iters=50):
    if name == "model-only":
        return ModelOnly()
    if name == "local":
        return Local(iters)
    if name == "batch":
        return Batch()
    raise ValueError(f"unknown backend '{name}' (model-only, local, batch)")
