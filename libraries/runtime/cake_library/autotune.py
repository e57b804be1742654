"""Autotuning on first use: a shape the routing table never measured times the router's
best-ranked kernels once, on the GPU it runs on, and keeps the fastest.

The router judges a shape outside its table by the measured points nearest to it; on the grid's
84 held-out shapes, each timed at ~29 kernels (bench/results/2026-12-07-router-heldout), that
choice is 1.146x slower than the fastest measured (geomean), the fastest of its 4 best-ranked
kernels 1.055x and of its 8 1.021x (bench/library/heldout_regret.py). So,
as Triton's autotune does, the first call of such a shape times each of the router's `count`
best-ranked kernels (graph_timer: a few launches captured into a CUDA graph and replayed between
CUDA events, as the library's benchmarks time them) and waits for them (one host
synchronization); every later call of the shape (same sizes, dtype and device) launches the kept
kernel at no extra cost. Every candidate is a legal kernel of the shape, so the first call's
output is right whichever runs last. A shape of the table is never timed (its kernel is the
measured fastest), nor is anything timed during CUDA graph capture: the routed kernel runs, and
the shape is tuned at its next eager call.

CAKE_AUTOTUNE=n sets the number of candidates (default 8: on those held-out shapes 3.5% faster
than 4, GPU time geomean, none slower beyond the timer's noise, for a first call of 9.8 ms
against 7.0 ms median; call G); 0 or 1 routes statically (the C++
dispatcher, called directly, always routes statically). CAKE_AUTOTUNE_CACHE=FILE keeps the
choices across processes (TuneStore): a shape tuned once on a GPU model with this library is not
timed again by another process.
"""
import json
import math
import os
import tempfile
import warnings

from .route import NoKernel

DEFAULT_CANDIDATES = 8
# Shapes remembered per library object before the memory is cleared (then re-tuned on use).
MAX_SHAPES = 4096


def candidates_from_env(default=DEFAULT_CANDIDATES):
    """CAKE_AUTOTUNE as a candidate count (>= 0); `default` when unset. A value that is not a
    non-negative integer is an error naming the variable (a typo must not silently disable it)."""
    text = os.environ.get("CAKE_AUTOTUNE")
    if text is None or text == "":
        return default
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError(f"CAKE_AUTOTUNE={text!r}: expected a number of candidates >= 0 (0 or 1: off)")
    return n


class TuneStore:
    """Autotuning choices in a JSON file shared by processes: {scope: {"B,N,D,K,dtype": kernel}},
    a scope per library (a digest of its library.json) and GPU model. Read when first needed; a
    new choice is merged into the file's current content and written to a temporary file that
    replaces it, so readers never see half a file (two processes writing at once may lose one of
    their new entries: it is timed again later). A file that cannot be read or written is a
    warning, never an error: the choices are only a cache."""

    def __init__(self, path, library_digest):
        self.path, self.digest = path, library_digest
        self._entries = None

    def _read(self):
        try:
            with open(self.path) as f:
                data = json.load(f)
            return data if isinstance(data, dict) else {}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            warnings.warn(f"CAKE_AUTOTUNE_CACHE {self.path}: not read ({e}); shapes are timed again")
            return {}

    def _keys(self, gpu, shape):
        """(scope, shape) keys of the file: "<digest>|<gpu>", "B,N,D,K,dtype"."""
        return f"{self.digest}|{gpu}", ",".join(map(str, shape))

    def get(self, gpu, shape):
        if self._entries is None:
            self._entries = self._read()
        scope, key = self._keys(gpu, shape)
        kernel = self._entries.get(scope, {}).get(key)
        return kernel if isinstance(kernel, str) else None

    def put(self, gpu, shape, kernel):
        data = self._read()
        scope, key = self._keys(gpu, shape)
        if not isinstance(data.get(scope), dict):
            data[scope] = {}
        data[scope][key] = kernel
        self._entries = data
        try:
            folder = os.path.dirname(os.path.abspath(self.path))
            with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as f:
                json.dump(data, f)
            os.replace(f.name, self.path)
        except OSError as e:
            warnings.warn(f"CAKE_AUTOTUNE_CACHE {self.path}: not written ({e})")


class Autotuner:
    """The kernel a shape runs: route()'s, or the fastest of the router's candidates once timed.

    `candidates(B, N, D, K, dtype, count)` ranks a shape's kernels as Router.candidates does
    (route.py, or the generated dispatcher's copy: native.py); `timer(runs)` launches each
    zero-argument callable and returns their times (ms, inf for one that failed); by default
    torch_timer, created on first use. `store`: a TuneStore, consulted before timing; `gpu(device)`
    names the device's GPU model for it (default: torch's name)."""

    def __init__(self, candidates, count, timer=None, store=None, gpu=None):
        self.candidates, self.count, self.timer = candidates, count, timer
        self.store, self.gpu = store, gpu
        self.chosen = {}     # shape key -> the chosen candidate (a `candidates` entry) or None
        self.records = {}    # shape key -> {kernel: ms}, as timed

    def choose(self, key, run, capturing):
        """None to launch route()'s kernel, or the candidate to launch instead. `key` is
        (B, N, D, K, dtype, device); `run(candidate)` launches a candidate once on the current
        stream; `capturing()` says whether the stream is being captured into a CUDA graph."""
        if key in self.chosen:
            return self.chosen[key]
        if self.count < 2:
            return None
        try:
            cands = self.candidates(*key[:5], self.count)
        except NoKernel:
            return None          # the launch path raises the error naming why
        if len(cands) > 1 and capturing():
            return None
        best = self._fastest(key, cands, run) if len(cands) > 1 else None
        pick = cands[best] if best else None      # index 0 is route()'s own choice
        if len(self.chosen) >= MAX_SHAPES:
            self.chosen.clear()
        self.chosen[key] = pick
        return pick

    def _fastest(self, key, cands, run):
        """The index of the fastest candidate: an earlier process's choice on this GPU model (the
        store), else timed now (and kept in records and the store); None when every one failed."""
        names = [c["kernel"] for c in cands]
        gpu = self._gpu(key[5]) if self.store else None
        kept = self.store.get(gpu, key[:5]) if self.store else None
        if kept in names:
            return names.index(kept)
        if self.timer is None:
            import torch
            self.timer = graph_timer(torch, fallback=torch_timer(torch))
        times = self.timer([lambda c=c: run(c) for c in cands])
        best = min(range(len(cands)), key=lambda i: (times[i], i))
        if not math.isfinite(times[best]):
            return None
        if len(self.records) >= MAX_SHAPES:
            self.records.clear()
        self.records[key] = dict(zip(names, times))
        if self.store:
            self.store.put(gpu, key[:5], names[best])
        return best

    def _gpu(self, device):
        if self.gpu is None:
            import torch
            self.gpu = torch.cuda.get_device_name
        return self.gpu(device)


# The host enqueues one launch in about this long (the Python API, worst case): the spin kernel
# before a timed batch lasts as long as enqueuing the batch, so the launches queue behind it and
# the events time the GPU, not the host.
HOST_US_PER_LAUNCH = 30
SPIN_CYCLES_PER_US = 2000            # about the boost clock (cycles of torch.cuda._sleep)


def torch_timer(torch, rounds=3, batch_ms=0.02, max_reps=16):
    """timer(runs) -> ms per launch of each run: each launched once first (modules loaded, tensor
    maps and workspaces made), one launch each as an estimate, then `rounds` rounds in rotated
    order of enough back-to-back launches (up to max_reps) to last batch_ms each; the median
    round. A run that raises on its first launch gets inf and is not timed."""
    sleep = getattr(torch.cuda, "_sleep", None)

    def timer(runs):
        alive, times = _first_launches(runs)
        if not alive:
            return times

        def batch(order, reps):
            if sleep is not None:
                sleep(min(HOST_US_PER_LAUNCH * SPIN_CYCLES_PER_US * sum(reps[i] for i in order), 40_000_000))
            marks = []
            for i in order:
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                for _ in range(reps[i]):
                    runs[i]()
                b.record()
                marks.append((i, a, b))
            marks[-1][2].synchronize()
            return [(i, a.elapsed_time(b) / reps[i]) for i, a, b in marks]

        estimate = dict(batch(alive, dict.fromkeys(alive, 1)))
        reps = {i: max(1, min(max_reps, math.ceil(batch_ms / max(estimate[i], 1e-4)))) for i in alive}
        samples = {i: [] for i in alive}
        for r in range(rounds):
            shift = r % len(alive)
            for i, t in batch(alive[shift:] + alive[:shift], reps):
                samples[i].append(t)
        for i in alive:
            times[i] = sorted(samples[i])[len(samples[i]) // 2]
        return times

    return timer


def _first_launches(runs):
    """Launches each run once (its module loaded, tensor maps and workspaces made, so that nothing
    of that is timed or captured): the indices of those that launched, and times with inf for
    those that raised."""
    alive = []
    for i, run in enumerate(runs):
        try:
            run()
            alive.append(i)
        except (ValueError, RuntimeError):
            pass
    return alive, [math.inf] * len(runs)


def graph_timer(torch, rounds=3, launches=20, fallback=None):
    """timer(runs) -> ms per launch as the library's final measures it (kmeans_bench.graph_time):
    each run captured `launches` times into a CUDA graph, then `rounds` rounds in rotated order
    of one replay each between events, after a warm replay of every graph; the median round.
    The autotuner's default: on 71 held-out grid shapes under 20 us (H100, 4 choices each), its
    picks were 1.0016x slower than the fastest candidate (geomean; worst 1.10x) against 1.046x
    (worst 3.6x) for torch_timer's eager batches, whose ranking the host's launch path and the
    clock after an idle GPU sway (bench/results/2026-12-07-library-evolve, call A). A run that
    raises on its first launch gets inf; one whose capture fails gets inf too, or, with
    `fallback` (another timer), every run is timed by that instead, so that one timer ranks them."""

    def timer(runs):
        alive, times = _first_launches(runs)
        graphs = {}
        for i in alive:
            g = torch.cuda.CUDAGraph()
            try:
                with torch.cuda.graph(g):
                    for _ in range(launches):
                        runs[i]()
            except (ValueError, RuntimeError):
                if fallback is not None:
                    return fallback(runs)
                continue
            graphs[i] = g
        order = list(graphs)
        if not order:
            return times
        for i in order:
            graphs[i].replay()
        samples = {i: [] for i in order}
        for r in range(rounds):
            shift = r % len(order)
            marks = []
            for i in order[shift:] + order[:shift]:
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                graphs[i].replay()
                b.record()
                marks.append((i, a, b))
            marks[-1][2].synchronize()
            for i, a, b in marks:
                samples[i].append(a.elapsed_time(b) / launches)
        for i in order:
            times[i] = sorted(samples[i])[len(samples[i]) // 2]
        return times

    return timer
