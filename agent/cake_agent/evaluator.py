"""The evaluator: verify -> cost -> compile (-> shape check) for one candidate, on the CPU.

Measurement is the backend's job (backends.py). Every step has the task's timeout; a failing,
hung or crashing step ends the candidate with a failure class and the caller goes on. A step that
could not write because the disk is full raises disk.DiskFull instead: that is not the candidate's
fault, and the run cannot go on.

``prepare`` = ``check`` (write the IR, verify, cost) then ``build`` (compile, check the shapes); the
two halves are separate so that ``cake throughput`` can time them apart. The evaluator is called
from a thread pool (evolve.py): every step is a subprocess, so candidates evaluate in parallel.

Compile cache: with ``cache_dir``, a compile's outputs (cubin, manifest, ptxas log) are kept under
a key hashing the IR, cake-translate's arguments and the identity (path, size, mtime) of the
cake-translate binary, the shared libraries it loads and the ptxas it finds; the same IR compiled by
the same tools again (a later run of the task, a resumed one) is copied from there. Such a step is
recorded with status ``cached`` (so step-time medians count only real compiles); the compile facts
keep the seconds of the compile that made the entry.
"""
import hashlib
import json
import os
import shutil
import subprocess
import threading
import time
import uuid

from . import cost as cost_mod
from . import diagnostics, disk, measure, ptxas
from .tools import bindings, run_step


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

    COMPILE_FLAGS = ("--emit=cubin",)  # plus -o, --manifest, --ptxas-log (outputs, not in the cache key)

    def __init__(self, task, toolchain, workdir, cache_dir=None):
        self.task, self.tools, self.workdir = task, toolchain, workdir
        self.cache = CompileCache(cache_dir, toolchain) if cache_dir else None

    def prepare(self, ir):
        """verify, cost, compile and check the manifest against the task's shapes."""
        ev = self.check(ir)
        self.build(ev)
        return ev

    def check(self, ir):
        """Writes the candidate's IR to its folder, verifies and costs it (status stays ``new`` if it
        verified, else ``failed``)."""
        ev = Evaluation(ir, self.workdir)
        try:
            os.makedirs(ev.dir, exist_ok=True)
            with open(ev.ir_path, "w") as f:
                f.write(ir)
        except OSError as e:
            if e.errno in disk.DISK_ERRNOS:
                raise disk.from_os_error(e, ev.ir_path) from None
            raise
        if self._verify(ev):
            self._cost(ev)
        return ev

    def build(self, ev):
        """Compiles a checked candidate and checks its shapes; status ``compiled`` or ``failed``."""
        if ev.status == "new" and self._compile(ev):
            self._check_shapes(ev)
        if ev.status == "new":
            ev.status = "compiled"
        return ev

    def _step(self, ev, res):
        ev.steps.append({"step": res.step, "status": res.status, "seconds": round(res.seconds, 4)})
        disk.check_step(res, ev.dir)
        return res

    def _verify(self, ev):
        features = self.tools.features()
        json_mode = features["diagnostics_json"]
        argv = [self.tools.path("cake-opt"), ev.ir_path, "-o", os.devnull,
                "--mlir-print-op-on-diagnostic=false"]
        if json_mode:
            argv.append(self.tools.DIAG_FLAG)
        # Not just the op verifiers: the whole schedule verifier, with the shipped and learned
        # rules, so that what it can prove wrong never reaches the GPU.
        if features.get("load_rules") and self.tools.rules:
            argv.append("--cake-load-rules=" + ",".join(self.tools.rules))
        if features.get("schedule_verify"):
            argv.append("--cake-verify" + self._verify_options())
        res = self._step(ev, run_step("verify", argv, self.task.timeouts["verify"]))
        ev.diagnostics = diagnostics.parse(res.stdout, res.stderr, json_mode)
        if not res.ok:
            errs = [d for d in ev.diagnostics if d["severity"] == "error"]
            ev.fail("verify", res.failure_class,
                    "\n".join(diagnostics.compact(errs)) if errs and res.status == "error" else res.detail())
            return False
        return True

    def _verify_options(self):
        """cake-verify's options: the task's interface (a candidate must keep its parameters, write
        its outputs and leave its inputs alone) and the escape hatches the task allows."""
        options = []
        if self.task.interface is not None:
            options.append("interface=" + self.task.interface.write(self.workdir))
        if self.task.allow_ops:
            options.append("allow=" + ",".join(self.task.allow_ops))
        return "=" + " ".join(options) if options else ""

    def _cost(self, ev):
        task = self.task
        ev.cost = cost_mod.cost(self.tools, ev.ir_path, task.shapes, task.timeouts["cost"], ev.dir,
                                objective=lambda times: measure.objective(task, times))
        if ev.cost["status"] != "unavailable":
            ev.steps.append({"step": "cost", "status": ev.cost["status"], "seconds": ev.cost.get("seconds")})
        # A prediction below the speed of light is rejected as a measurement would be: whatever
        # the model missed, ranking by it would reward the candidate for the model's mistake.
        for shape, pred in zip(task.shapes, ev.cost.get("per_shape_ms") or []):
            floor_ms = task.floor_seconds(shape) * 1e3
            if pred is not None and pred < floor_ms:
                ev.fail("cost", "suspicious_fast", f"predicted {pred:.6f} ms for {measure.sizes_arg(shape)} is "
                        f"below the speed-of-light floor {floor_ms:.6f} ms")
                return False
        return True  # a cost-model failure is recorded, never fatal for the candidate

    def _compile(self, ev):
        outputs = [os.path.join(ev.dir, n) for n in CompileCache.FILES]
        cubin, manifest, log = outputs
        start = time.monotonic()
        key = self.cache.key(ev.ir, self.COMPILE_FLAGS) if self.cache else None
        hit = self.cache.fetch(key, outputs) if key else None
        if hit is not None:
            seconds = hit
            ev.steps.append({"step": "compile", "status": "cached", "seconds": round(time.monotonic() - start, 4)})
        else:
            argv = [self.tools.path("cake-translate"), ev.ir_path, *self.COMPILE_FLAGS, "-o", cubin,
                    "--manifest", manifest, "--ptxas-log", log]
            res = self._step(ev, run_step("compile", argv, self.task.timeouts["compile"]))
            if not res.ok:
                diags = diagnostics.parse_text(res.stderr)
                ev.fail("compile", res.failure_class,
                        "\n".join(diagnostics.compact(diags)) if diags and res.status == "error" else res.detail())
                return False
            seconds = res.seconds
            if key:
                self.cache.store(key, outputs, seconds)
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
        ev.compile = dict(facts, seconds=round(seconds, 4), cubin=cubin, manifest=manifest,
                          entry=kernel.get("entry"), block=kernel.get("block"),
                          static_shared_bytes=kernel.get("static_shared_bytes"),
                          symbols=kernel.get("symbols"), constraints=kernel.get("constraints", []))
        return True

    def _check_shapes(self, ev):
        """Every task shape must name the kernel's symbols and satisfy its manifest constraints, as
        the host ABI judges them (Cake/ABI: the reader and evaluator cake-run runs), so the harness
        keeps no copy of the manifest's expression language: in process through the bindings when
        they are importable, else `cake-run --check-sizes` (no GPU needed)."""
        symbols = set(ev.compile.get("symbols") or [])
        for shape in self.task.shapes:
            if set(shape) != symbols:
                ev.fail("shape", "shape_symbols", f"shape {shape} does not match the kernel's symbols {sorted(symbols)}")
                return
            error = self._shape_error(ev, shape)
            if error:
                ev.fail("shape", "shape_constraint", f"{error} (shape {shape})")
                return

    def _shape_error(self, ev, shape):
        """Why the manifest refuses ``shape`` (None: it is accepted, or nothing here can judge)."""
        cake = bindings("check_sizes")
        if cake is not None:
            with open(ev.compile["manifest"]) as f:
                verdict = cake.check_sizes(f.read(), shape, ev.compile["entry"] or "")
            return None if verdict.get("ok") else verdict.get("error")
        runner = self.tools.path("cake-run")
        if not os.access(runner, os.X_OK):
            return None  # no runner on this machine: it could not run the shape either
        sizes = ",".join(f"{k}={v}" for k, v in shape.items())
        res = run_step("shape", [runner, "--check-sizes", "--manifest", ev.compile["manifest"],
                                 "--kernel", ev.compile["entry"] or "", "--sizes", sizes], 60)
        try:
            record = json.loads(res.stdout)
        except ValueError:
            record = {}
        return record.get("error") if record.get("status") == "bad_arguments" else None


def _stat_id(path):
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:absent"
    return f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"


def find_ptxas():
    """The ptxas cake-translate uses: $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT (bin/ptxas), then PATH."""
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        root = os.environ.get(var)
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return shutil.which("ptxas")


class CompileCache:
    """Compiled outputs by content: IR + arguments + the tools' identity (see the module docstring).

    Entries are written to a private folder and renamed into place, so a reader sees a whole entry
    or none (also after a kill or a full disk); files are copied out, never linked, so a later
    compile writing to the candidate's folder cannot change an entry.
    """

    FILES = ("kernel.cubin", "kernel.json", "ptxas.txt")

    def __init__(self, root, toolchain):
        self.root, self.tools = root, toolchain
        self._tools_id, self._lock = None, threading.Lock()

    def tools_id(self):
        with self._lock:
            if self._tools_id is None:
                translate = self.tools.path("cake-translate")
                parts = [_stat_id(translate), _stat_id(find_ptxas() or "ptxas")]
                try:  # the shared libraries it loads (LLVM, MLIR): a rebuilt one is another compiler
                    out = subprocess.run(["ldd", translate], capture_output=True, text=True, timeout=30).stdout
                    parts += sorted(_stat_id(m.split("=>")[1].split("(")[0].strip())
                                    for m in out.splitlines() if "=>" in m and "/" in m.split("=>")[1])
                except (OSError, subprocess.SubprocessError):
                    parts.append("ldd:unavailable")
                self._tools_id = "\n".join(parts)
            return self._tools_id

    def key(self, ir, flags):
        h = hashlib.sha256()
        for part in (self.tools_id(), "\0".join(flags), ir):
            h.update(part.encode())
            h.update(b"\0\1")
        return h.hexdigest()

    def _dir(self, key):
        return os.path.join(self.root, key[:2], key)

    def fetch(self, key, outputs):
        """Copies an entry's files to ``outputs``; the seconds of the compile that made it, or None."""
        d = self._dir(key)
        try:
            with open(os.path.join(d, "meta.json")) as f:
                seconds = float(json.load(f)["seconds"])
            for name, dst in zip(self.FILES, outputs):
                shutil.copyfile(os.path.join(d, name), dst)
        except (OSError, ValueError, KeyError, TypeError) as e:
            if isinstance(e, OSError) and e.errno in disk.DISK_ERRNOS:
                raise disk.from_os_error(e) from None
            return None
        return seconds

    def store(self, key, outputs, seconds):
        final = self._dir(key)
        if os.path.isdir(final):
            return
        tmp = os.path.join(self.root, f"tmp-{uuid.uuid4().hex}")
        try:
            os.makedirs(tmp)
            for name, src in zip(self.FILES, outputs):
                shutil.copyfile(src, os.path.join(tmp, name))
            with open(os.path.join(tmp, "meta.json"), "w") as f:
                json.dump({"seconds": round(seconds, 4)}, f)
            os.makedirs(os.path.dirname(final), exist_ok=True)
            os.rename(tmp, final)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            if e.errno in disk.DISK_ERRNOS:
                raise disk.from_os_error(e, tmp) from None
            # Anything else (another process's identical entry won the rename, a folder that is not
            # writable): the cache is only a shortcut, the compile itself succeeded.
