"""Evaluation backends: where (and whether) candidates are measured.

- ``model-only``: no GPU. Fitness is the cost model's prediction when cake-opt has one; otherwise
  there is none: candidates are verified and compiled only, and nothing is ranked.
- ``local``: cake-run on this machine's GPU, each task shape with a fresh seed, against the reference.
- ``batch``: candidates that compile wait for a GPU elsewhere; after each generation the harness
  exports them (batch.py) and stops until the results are ingested.
- ``ray`` (ray_backend.py, optional): compile jobs over every CPU of a Ray cluster, measure jobs over
  every GPU of it, one GPU per job.

A backend decides where the CPU steps run (``compiler``: a thread pool here) and how measurements
are taken and handed back for recording (``measured``: one at a time in the calling thread here).
"""
import concurrent.futures
import os
import shutil
import tempfile

from . import inputs, measure
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


class BackendUnavailable(RuntimeError):
    """A backend that cannot be used here (e.g. its optional package is not installed)."""


class InTurn:
    """CPU steps on ``jobs`` threads of this machine; measurements one at a time, in the caller's thread."""

    measures_in_run = False  # measures during the run (not later, elsewhere): the seed is checked too

    def compiler(self, evaluator, jobs):
        return ThreadCompiler(evaluator, jobs)

    def measured(self, task, toolchain, futures, screened, ordered):
        """Yields (proposal, evaluation) once measured. ``futures``: {compile future: proposal} in
        proposal order; ``screened(ev)``: kept off the GPU; ``ordered``: yield in proposal order."""
        for fut in (list(futures) if ordered else concurrent.futures.as_completed(futures)):
            ev = fut.result()
            if screened(ev):
                ev.status = "screened"  # compiled, predicted slower than the generation's GPU slots
            else:
                self.measure(task, toolchain, ev)  # GPU work stays in this thread: one at a time
            yield futures[fut], ev

    def close(self):
        """Nothing to release."""


class ThreadCompiler:
    """Verify, cost and compile on a thread pool (each step is a subprocess, so they run in parallel)."""

    def __init__(self, evaluator, jobs):
        self.evaluator = evaluator
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))

    def submit(self, ir):
        return self.pool.submit(self.evaluator.prepare, ir)

    def shutdown(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class ModelOnly(InTurn):
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


def run_shapes(task, cake_run, cubin, manifest, ref, iters):
    """cake-run for every task shape, each with a fresh seed, stopping at the first that is not ``ok``:
    the judged measurements (measure.judge). Shared by the local backend and the ray backend's GPU jobs."""
    out = []
    with tempfile.TemporaryDirectory(prefix="cake-inputs-") as folder:  # the task's generated inputs
        for i, shape in enumerate(task.shapes):
            seed = measure.fresh_seed()
            argv = measure.run_argv(cake_run, cubin, manifest, ref, task, shape, seed, iters,
                                    inputs.write(task, i, folder))
            res = run_step("run", argv, task.timeouts["run"] + 30)
            out.append(measure.judge(task, shape, seed, measure.parse_record(res.stdout),
                                     res.detail() if not res.ok else None))
            if out[-1]["status"] != "ok":
                break
    return out


def settle(task, ev, measurements):
    """Puts a candidate's measurements on its evaluation: failed at the first shape not ``ok``, else
    measured with the task's objective as fitness."""
    ev.measurements.extend(measurements)
    bad = next((m for m in measurements if m["status"] != "ok"), None)
    if bad:
        ev.fail("run", bad["status"], f"{measure.sizes_arg(bad['shape'])} seed {bad['seed']}: {bad['detail']}")
        return
    ev.status = "measured"
    ev.fitness = measure.fitness(task, ev.measurements)
    ev.fitness_kind = "measured_ms" if ev.fitness is not None else None


class Local(InTurn):
    name = "local"
    measures = True
    measures_in_run = True

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
        ms = run_shapes(task, toolchain.path("cake-run"), ev.compile["cubin"], ev.compile["manifest"], ref,
                        self.iters)
        if ms[-1]["status"] == "no_device":
            raise NoDevice(f"cake-run: {ms[-1]['detail']}")
        settle(task, ev, ms)


class Batch(InTurn):
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


def make(name, iters=50, ray_address=None, ray_timeout=None):
    if name == "model-only":
        return ModelOnly()
    if name == "local":
        return Local(iters)
    if name == "batch":
        return Batch()
    if name == "ray":  # optional: Ray is imported by the backend only, never by the rest of the harness
        from . import ray_backend
        return ray_backend.RayBackend(iters, ray_address, ray_timeout)
    raise ValueError(f"unknown backend '{name}' (model-only, local, batch, ray)")
