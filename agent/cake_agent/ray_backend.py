"""The ``ray`` backend: compile jobs over every CPU of a Ray cluster, measure jobs over every GPU.

Same steps, records, timeouts and failure classes as the local backend: a compile job is
Evaluator.prepare (verify, cost, compile, shape check) with the task's step timeouts; a measure job
is backends.run_shapes (cake-run per shape, fresh seeds, against the reference) on one GPU, judged
by measure.judge, so every shape of a candidate is timed on the same GPU as its reference. The
driver records each candidate as its measurement comes back (one transaction, as always), so a run
stopped anywhere keeps what finished and ``--resume`` continues it.

Machine faults (ray_pool.py): a job whose worker or node is lost, or that does not answer by its
deadline, runs again elsewhere (2 more attempts); after that the candidate fails with
``worker_lost`` / ``worker_timeout``, machine classes that learning never turns into a rule, and a
generation in which every candidate failed so stops the run as an environment error (exit 7).

Every node needs this checkout and its build at the same path (workers import cake_agent from it and
run the tools of ``--bin``); files travel with the jobs (IR, cubins, manifests, the reference; a
task's generated inputs are written where the job runs), so no shared file system is needed.
Records carry the GPU that measured them: ``machine`` is 'node gpuN GPU-uuid' and the record's
``gpu`` field has node, index, name and UUID (nvidia-smi).
Without a GPU in the cluster, compile jobs still spread over its CPUs and fitness is the cost
model's prediction, labelled as such (as model-only).

``run_commands`` serves a kernel library's measurements: each command (a slice of the shape grid,
its anchors and kernels timed in one process) is one GPU job, so every ratio is a same-GPU ratio,
and its output files come back with the GPU that made them (bench/ray/compare_backends.py).
"""
import concurrent.futures
import os
import platform
import shutil
import subprocess
import tempfile

from . import backends
from .evaluator import Evaluation, Evaluator
from .ray_pool import Lost, Pool, connect
from .tools import run_step

RETRIES = 2  # attempts after the first, for a job lost to the machine


class RayBackend(backends.InTurn):
    name = "ray"

    def __init__(self, iters=50, address=None, timeout_s=None, retries=RETRIES):
        self.ray = connect(address)
        self.iters, self.address, self.timeout_s, self.retries = iters, address, timeout_s, retries
        res = self.ray.cluster_resources()
        self.cpus, self.gpus = int(res.get("CPU", 0)), int(res.get("GPU", 0))
        self.measures = self.measures_in_run = self.gpus > 0
        self.node = self.ray.get_runtime_context().get_node_id()
        # Retries are ours (per attempt deadlines, a count); GPU workers are kept between jobs: they
        # hold no CUDA context (cake-run does, and exits).
        self.prepare_job = self.ray.remote(max_retries=0)(prepare_job)
        self.measure_job = self.ray.remote(max_retries=0, max_calls=0)(measure_job)
        self.command_job = self.ray.remote(max_retries=0, max_calls=0)(command_job)
        self.gpu_pool = Pool(self.ray, "GPU", retries) if self.gpus else None
        self._ref = None  # (path, object ref) of the reference cubin, put in the object store once

    def describe(self, toolchain):
        where = f"Ray cluster at {self.address}" if self.address else "local Ray cluster"
        if self.measures:
            return (f"ray backend ({where}): compile jobs on {self.cpus} CPUs, measure jobs on {self.gpus} GPUs "
                    "(one job per GPU, every shape of a candidate on one GPU), fresh seeds, against the reference")
        return (f"ray backend ({where}): compile jobs on {self.cpus} CPUs; no GPU in the cluster: fitness = the "
                "cost model's predicted time (not a measurement)")

    def check(self, task, toolchain):
        if self.measures:
            backends.require_reference(task, toolchain, self.name)

    def close(self):
        if self.gpu_pool:
            self.gpu_pool.shutdown()

    # -- compile ---------------------------------------------------------------------------------
    def compiler(self, evaluator, jobs):
        return RayCompiler(self, evaluator)

    # -- measure ---------------------------------------------------------------------------------
    def measure(self, task, toolchain, ev):
        """One candidate, waiting for its job (the seed's check before a run)."""
        if not self.measures:
            return backends.ModelOnly().measure(task, toolchain, ev)
        if ev.status == "compiled":
            settle(task, ev, self.submit_measure(task, toolchain, ev).result())

    def submit_measure(self, task, toolchain, ev):
        """A future of the candidate's judged measurements (or a Lost)."""
        args = (task, toolchain.path("cake-run"), _read(ev.compile["cubin"]), _read(ev.compile["manifest"]),
                self._reference(task, toolchain), self.iters)
        deadline = self.timeout_s or len(task.shapes) * (task.timeouts["run"] + 30) + 60
        return self.gpu_pool.submit(self.measure_job, args, deadline)

    def measured(self, task, toolchain, futures, screened, ordered):
        """Yields (proposal, evaluation) as measurements finish on any GPU; a compiled candidate's
        measure job starts as soon as its compile job ends and a GPU is free."""
        if not self.measures:
            yield from super().measured(task, toolchain, futures, screened, ordered)
            return
        compiling, measuring, ready, order = set(futures), {}, {}, list(futures)
        while compiling or measuring:
            done, _ = concurrent.futures.wait(compiling | set(measuring),
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for f in done:
                if f in compiling:
                    compiling.discard(f)
                    ev = f.result()
                    if screened(ev):
                        ev.status = "screened"
                    if ev.status == "compiled":
                        measuring[self.submit_measure(task, toolchain, ev)] = (f, ev)
                    else:
                        ready[f] = ev
                else:
                    cf, ev = measuring.pop(f)
                    settle(task, ev, f.result())
                    ready[cf] = ev
            if ordered:  # a parent before its children: wait for the earliest proposal
                while order and order[0] in ready:
                    cf = order.pop(0)
                    yield futures[cf], ready.pop(cf)
            else:
                for cf in list(ready):
                    yield futures[cf], ready.pop(cf)

    def run_commands(self, commands, timeout_s):
        """Each argv of ``commands`` as one GPU job (``{out}`` in it: a folder whose files come back);
        yields (index, {status, returncode, tail, seconds, files, gpu} or a Lost) as jobs finish."""
        if not self.gpus:
            raise backends.BackendUnavailable("no GPU in the Ray cluster: GPU commands cannot run")
        futures = {self.gpu_pool.submit(self.command_job, (argv, timeout_s), timeout_s + 60): i
                   for i, argv in enumerate(commands)}
        for f in concurrent.futures.as_completed(futures):
            yield futures[f], f.result()

    def _reference(self, task, toolchain):
        path = task.reference_path(toolchain.refs_dir)
        if self._ref is None or self._ref[0] != path:
            self._ref = (path, self.ray.put(_read(path)))
        return self._ref[1]


class RayCompiler:
    """Evaluator.prepare as jobs of one CPU each, over the whole cluster."""

    def __init__(self, backend, evaluator):
        self.backend, self.ev = backend, evaluator
        self.pool = Pool(backend.ray, "CPU", backend.retries)
        t = evaluator.task.timeouts  # the steps' own timeouts, then a margin: past that, the worker is lost
        self.deadline = t["verify"] + t["cost"] * len(evaluator.task.shapes) + t["compile"] + 60

    def submit(self, ir):
        e = self.ev
        cache_dir = e.cache.root if e.cache else None

        def lost(cls, detail):  # the candidate is not blamed: a machine class (learn.INFRA_CLASSES)
            ev = Evaluation(ir, e.workdir)
            ev.fail("compile", cls, detail)
            return ev
        return self.pool.submit(self.backend.prepare_job, (e.task, e.tools, e.workdir, cache_dir, ir, self.backend.node),
                                self.deadline, finish=_unpack, lost=lost)

    def shutdown(self):
        self.pool.shutdown()


def settle(task, ev, result):
    if isinstance(result, Lost):
        ev.fail("run", result.cls, result.detail)
    else:
        backends.settle(task, ev, result)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _unpack(result):
    """On the driver: a compile job's evaluation, its files written here when it ran on another node."""
    ev, files = result
    if files:
        os.makedirs(ev.dir, exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(ev.dir, name), "wb") as f:
                f.write(data)
    return ev


# -- on the workers ------------------------------------------------------------------------------

def prepare_job(task, toolchain, workdir, cache_dir, ir, driver_node):
    """Verify, cost and compile one candidate in the driver's work folder path on this node; the
    folder's files come back when this node is not the driver's (no shared file system needed)."""
    import ray
    ev = Evaluator(task, toolchain, workdir, cache_dir).prepare(ir)
    files = None
    if ray.get_runtime_context().get_node_id() != driver_node and os.path.isdir(ev.dir):
        files = {n: _read(os.path.join(ev.dir, n)) for n in os.listdir(ev.dir)
                 if os.path.isfile(os.path.join(ev.dir, n))}
    return ev, files


def measure_job(task, cake_run, cubin, manifest, ref, iters):
    """Every shape of one candidate on this job's GPU, in a private folder; each measurement names it."""
    with tempfile.TemporaryDirectory(prefix="cake-ray-") as d:
        paths = [os.path.join(d, n) for n in ("kernel.cubin", "kernel.json", "ref.cubin")]
        for path, data in zip(paths, (cubin, manifest, ref)):
            with open(path, "wb") as f:
                f.write(data)
        ms = backends.run_shapes(task, cake_run, *paths, iters)
    gpu = gpu_identity()
    for m in ms:
        m["machine"] = gpu["label"]
        if m["record"] is not None:
            m["record"]["gpu"] = gpu
    return ms


def command_job(argv, timeout_s):
    """One command on this job's GPU, with the step timeout and process-group kill of every tool."""
    with tempfile.TemporaryDirectory(prefix="cake-ray-out-") as out:
        res = run_step("command", [a.replace("{out}", out) for a in argv], timeout_s)
        files = {n: _read(os.path.join(out, n)) for n in os.listdir(out) if os.path.isfile(os.path.join(out, n))}
    return {"status": res.status, "returncode": res.returncode, "tail": (res.stdout + res.stderr)[-2000:],
            "seconds": round(res.seconds, 3), "files": files, "gpu": gpu_identity()}


_GPUS = {}


def gpu_identity():
    """This job's GPU: {node, index, name, uuid, label}. Ray sets CUDA_VISIBLE_DEVICES to the GPU it
    gave the job; nvidia-smi names it (same numbering: CUDA_DEVICE_ORDER=PCI_BUS_ID, ray_pool.py)."""
    visible = (os.environ.get("CUDA_VISIBLE_DEVICES") or "").split(",")[0] or None
    if visible not in _GPUS:
        ident = {"node": platform.node(), "index": visible, "name": None, "uuid": None}
        smi = shutil.which("nvidia-smi")
        if smi and visible is not None:
            try:
                out = subprocess.run([smi, "--query-gpu=index,name,uuid", "--format=csv,noheader", "-i", visible],
                                     capture_output=True, text=True, timeout=30).stdout
                parts = [p.strip() for p in out.strip().splitlines()[0].split(",")] if out.strip() else []
                if len(parts) == 3:
                    ident.update(index=parts[0], name=parts[1], uuid=parts[2])
            except (OSError, subprocess.SubprocessError):
                pass  # the GPU stays known by node and index
        ident["label"] = " ".join(x for x in (ident["node"], f"gpu{ident['index']}", ident["uuid"]) if x)
        _GPUS[visible] = ident
    return _GPUS[visible]
