"""kmeans_assign(x, c, c_sq=None, out=None): the nearest centroid of every point, on torch tensors.

x [B, N, D] (or [N, D]) and c [B, K, D] (or [K, D]) of one dtype (float16, bfloat16, float32),
contiguous, on one CUDA device; c_sq [B, K] float32 = |c|^2 if the caller has it; out [B, N] int32.
Runs on the current stream. Errors name the argument and launch nothing.
"""
import functools
import hashlib
import json
import os

from . import driver as drv
from . import native
from .autotune import Autotuner, TuneStore, candidates_from_env
from .route import NoKernel, Router, auxiliary_kernels, launch_sizes

_TORCH_DTYPES = ("float16", "bfloat16", "float32")
MAX_ROUTES = 4096        # shapes remembered for the C fast path before the memory is cleared
_UNTUNED = object()


class KMeansLibrary:
    def __init__(self, folder, autotune=None):
        """`autotune`: how many of the router's best-ranked kernels a shape outside the routing
        table times on its first call (autotune.py; default CAKE_AUTOTUNE, else 8; 0 or 1: static
        routing)."""
        with open(os.path.join(folder, "library.json"), "rb") as f:
            raw = f.read()
        self.definition = json.loads(raw)
        self.folder = folder
        self.router = Router(self.definition)
        cache = os.environ.get("CAKE_AUTOTUNE_CACHE")
        store = TuneStore(cache, hashlib.sha1(raw).hexdigest()[:16]) if cache else None
        self.native = native.load(folder)   # the generated C++ dispatcher, when built
        # The dtypes whose |c|^2 the dispatcher computes when the caller has none (families/csq.py).
        self._native_csq = {d for d in native.DTYPE_CODES
                            if self.native is not None and self.native.computes_csq(d)}
        # The dispatcher ranks a new shape's candidates in microseconds, the Python router in
        # milliseconds (the same answer: test_generated_dispatcher_routes_as_python).
        ranked = self.native.candidates if self.native is not None else self.router.candidates
        self.autotuner = Autotuner(ranked, candidates_from_env() if autotune is None else autotune,
                                   store=store)
        self._variants = {v["name"]: v for v in self.definition["variants"] +
                          auxiliary_kernels(self.definition)}
        # Split-K variants (families/tma.py's split_k) write `best`; the finish kernel writes idx.
        self._split_k = {v["name"] for v in self.definition["variants"]
                         if any(p.get("name") == "best" for p in v.get("manifest", {}).get("params", ()))}
        self._finish = next((v["name"] for v in self.definition.get("finish_variants", [])), None)
        # dtype -> the kernel that ends a Lloyd step (families/centroids.py), where the library has one.
        # The row-per-block layout (`row_block`) runs only when asked for by name: not measured yet.
        self._centroids = {v["dtype"]: v["name"] for v in self.definition.get("centroids_variants", [])
                           if not v.get("row_block")}
        self._driver = None
        self._kernels = {}       # name -> drv.Kernel, loaded on first use
        self._maps = {}          # (kernel, pointers, sizes) -> device tensor of encoded TMA maps
        self._spaces = {}        # staging buffers (padded copies, |c|^2), kept per shape
        # The usual call from the tensors in one C call (dispatch/PyEntry.c's assign_tensors),
        # where the package has the CPython entry points: configured on the first call; `_routes`
        # holds each shape's kernel as decided by its first call (-1: routed, else a variant index).
        # (A package exported before it has entry points without it: its calls take the Python path.)
        entry = self.native.entry if self.native is not None else None
        self._entry = entry if hasattr(entry, "assign_tensors") else None
        self._configured = False
        self._routes = {}

    def route(self, B, N, D, K, dtype):
        return self.router.route(B, N, D, K, dtype)

    def kernel(self, name):
        if name not in self._kernels:
            if self._driver is None:
                self._driver = drv.Driver()
            with open(os.path.join(self.folder, "kernels", name + ".cubin"), "rb") as f:
                self._kernels[name] = drv.Kernel(self._driver, f.read(),
                                                 self._variants[name]["manifest"])
        return self._kernels[name]

    def assign(self, x, c, c_sq=None, out=None, kernel=None):
        """`kernel` forces one variant by name (tuning); otherwise the router chooses, and a
        shape outside its table is autotuned on its first call (autotune.py)."""
        # Host time per call (bench/library/host_ab.py, one process, alternating rounds; an
        # H100 host): 8.4 / 5.7 us through assign_tensors with c_sq and out given, 1.63x / 1.85x
        # less than session 42's checks in Python and ctypes (kmeans-23 call 1), of which the
        # entry point, the C++ dispatcher and the driver's launch are 5.9 / 3.3 us.
        torch = _torch()
        if kernel is None and self._entry is not None:
            # The usual call in one C call (PyEntry.c's assign_tensors); None where this path
            # must run instead (a bad argument, a first call of the shape, another device).
            if out is None and isinstance(x, torch.Tensor) and x.dim() >= 2:
                out = torch.empty(x.shape[:-1], device=x.device, dtype=torch.int32)
            done = self._entry.assign_tensors(x, c, c_sq, out, self._routes)
            if done is not None:
                return done
        B, N, D, K, dev, dtype = _check(torch, x, c)
        if c_sq is not None:
            _need(torch, c_sq, "c_sq", (B, K), torch.float32, dev)
        if out is not None:
            _need(torch, out, "out", (B, N), torch.int32, dev)
            idx = out
        else:
            idx = torch.empty(x.shape[:-1], device=x.device, dtype=torch.int32)
        if c_sq is None and dtype not in self._native_csq:
            # Into a kept workspace: a stable address keeps the tensor maps cached (and a CUDA
            # graph capture of this call needs no new upload). With the dispatcher's |c|^2 kernel
            # c_sq stays None: the dispatcher computes it (one launch instead of three in torch).
            c_sq = self._workspace(("csq_auto", dev, B, K), (B, K), torch.float32)
            torch.sum(c.view(B, K, D).float() ** 2, -1, out=c_sq)
        tuned = None
        if kernel is None and self.autotuner.count > 1:
            key = (B, N, D, K, dtype, dev)
            tuned = self.autotuner.chosen.get(key, _UNTUNED)    # the usual case: known
            if tuned is _UNTUNED:
                tuned = self.autotuner.choose(
                    key, lambda r: self._launch(torch, x, c, c_sq, idx, B, N, D, K, dtype, dev, r["kernel"], r),
                    torch.cuda.is_current_stream_capturing)
        if tuned is not None:
            kernel = tuned["kernel"]
        if kernel is None and self.native is not None and dev == _CURRENT_DEVICE():
            # The usual call, spelled out here (no _launch frame with its 13 arguments).
            self.native.assign_coded(x.data_ptr(), c.data_ptr(), 0 if c_sq is None else c_sq.data_ptr(),
                                     idx.data_ptr(), B, N, D, K, native.DTYPE_CODES[dtype],
                                     _RAW_STREAM(dev))
            self._decided(torch, (B, N, D, K, dtype, dev), -1)
        else:
            self._launch(torch, x, c, c_sq, idx, B, N, D, K, dtype, dev, kernel, tuned)
            if tuned is not None and self.native is not None:
                self._decided(torch, (B, N, D, K, dtype, dev), self.native.variant_index(kernel))
        # [B, N] for x [B, N, D], [N] for x [N, D], whichever of the two forms `out` had.
        return idx if idx.dim() == x.dim() - 1 else idx.view(x.shape[:-1])

    def _decided(self, torch, key, variant):
        """Records a shape's kernel for assign_tensors (-1: routed, else the variant's index)
        once it is final: static routing, or the autotuner has chosen (a shape whose first call
        came during a graph capture is tuned at a later call)."""
        if self._entry is None or (self.autotuner.count > 1 and key not in self.autotuner.chosen):
            return
        if not self._configured:
            names = tuple(sorted(native.DTYPE_CODES, key=native.DTYPE_CODES.get))   # code order
            self._entry.configure(torch.Tensor, tuple(getattr(torch, n) for n in names), names,
                                  torch.int32, _CURRENT_DEVICE, _RAW_STREAM,
                                  sum(1 << native.DTYPE_CODES[d] for d in self._native_csq))
            self._configured = True
        if len(self._routes) > MAX_ROUTES:
            self._routes.clear()
        self._routes[key] = variant

    def tune_key(self, B, N, D, K, dtype, device):
        """The autotuner's key of a shape on `device` (a torch.device or its index)."""
        return (B, N, D, K, dtype, getattr(device, "index", device))

    def launched_kernel(self, B, N, D, K, dtype, device):
        """The kernel assign() launches for a shape on `device`: the autotuned one once the shape
        was timed there (autotune.py), else route()'s."""
        tuned = self.autotuner.chosen.get(self.tune_key(B, N, D, K, dtype, device))
        return tuned["kernel"] if tuned else self.route(B, N, D, K, dtype)["kernel"]

    def _launch(self, torch, x, c, c_sq, idx, B, N, D, K, dtype, dev, kernel=None, r=None):
        """One launch on the current stream of device `dev`: route()'s kernel, or the named
        `kernel` (`r`: its route answer, when the caller has it; without launch sizes, they are
        computed here)."""
        if self.native is not None:
            # The raw stream handle and the device index are the cheap spellings (a Stream
            # object or a device context costs us). A forced kernel (tuning) takes the same C++
            # path as a routed one, so that tune times and final times are measured alike.
            args = (x.data_ptr(), c.data_ptr(), 0 if c_sq is None else c_sq.data_ptr(),
                    idx.data_ptr(), B, N, D, K, native.DTYPE_CODES[dtype], _RAW_STREAM(dev))
            call = self.native.assign_coded if kernel is None else \
                functools.partial(self.native.assign_variant_coded, kernel)
            if dev == _CURRENT_DEVICE():
                call(*args)
            else:
                with torch.cuda.device(dev):
                    call(*args)
            return
        x3, c3 = x.view(B, N, D), c.view(B, K, D)
        try:
            if r is None and kernel is None:
                r = self.route(B, N, D, K, dtype)
            elif r is None or "sizes" not in r:     # the dispatcher's candidates name kernels only
                legal = {v["name"]: v for v in self.router.legal(B, N, D, K, dtype)}
                if kernel not in legal:
                    raise NoKernel(f"kernel {kernel} does not serve B={B} N={N} D={D} K={K} {dtype}")
                r = {"kernel": kernel, "sizes": launch_sizes(legal[kernel], B, N, D, K)}
        except NoKernel as e:
            raise ValueError(str(e)) from None
        sizes = r["sizes"]
        k = self.kernel(r["kernel"])
        # The tensor-core families read 16-byte rows (TMA, or 16-byte vector loads): a D that is
        # not a multiple of 16 bytes is served from a zero-padded copy (one extra pass over x).
        # The copies go to workspaces kept per shape, so their addresses (and the encoded tensor
        # maps) are stable from call to call and the whole call can be captured in a CUDA graph.
        # Staging "none" (simt, direct, lanes, tcd) reads the tensors as they are (sizes["D"] == D),
        # with vector loads: a base that is not 16-byte aligned is copied for it too.
        if sizes["D"] != D or x3.data_ptr() % 16:
            x3 = self._staged("x", x3, sizes["D"])
        if sizes["D"] != D or c3.data_ptr() % 16:
            c3 = self._staged("c", c3, sizes["D"])
        kp = sizes.get("KP")           # TMA families: |c|^2 rows of KP (16-byte aligned starts)
        if kp is None:
            csq = c_sq.view(B, K)
        elif kp != K or c_sq.data_ptr() % 16:
            csq = self._workspace(("csq", dev, B, kp), (B, kp), torch.float32)
            csq[:, :K].copy_(c_sq.view(B, K))
        else:
            csq = c_sq
        ptrs = {"x": x3.data_ptr(), "c": c3.data_ptr(), "csq": csq.data_ptr(), "idx": idx.data_ptr()}
        split = r["kernel"] in self._split_k
        if split:
            # Split-K (families/tma.py's split_k): the kernel merges packed argmins into `best`,
            # the finish kernel writes idx from it and fills it with ones again for the next call.
            best = self._workspace(("best", dev, B, N), (B, N), torch.int64, fill=-1)
            ptrs["best"] = best.data_ptr()
        if k.has_tensor_maps:
            ptrs.update(self._tensor_maps(r["kernel"], ptrs, sizes, dev))
        with torch.cuda.device(dev):
            stream = _raw_stream(dev)
            k.launch(ptrs, sizes, stream)
            if split:
                self.kernel(self._finish).launch(
                    {"best": ptrs["best"], "idx": ptrs["idx"]}, {"BN": B * N}, stream)

    def update(self, x, idx, K, kernel=None):
        """(sums [B, K, D] f32, counts [B, K] i32) of the points of each cluster: the centroid
        update of a Lloyd iteration, with cake.atomic_add (the `update` family). `kernel` forces
        an update variant by name (the privatized `_c` ones: measured against the default)."""
        torch = _torch()
        launch, _, (B, N, D) = self._update_launch(x, idx, K, kernel)    # checked before allocating
        sums = torch.zeros(B, K, D, device=x.device, dtype=torch.float32)
        counts = torch.zeros(B, K, device=x.device, dtype=torch.int32)
        launch(sums, counts)
        return sums, counts

    def _update_launch(self, x, idx, K, kernel=None):
        """(a function launching the update kernel that adds x's points into sums [B, K, D] f32
        and counts [B, K] i32, x's device index, (B, N, D)), the arguments checked and the
        variant chosen."""
        torch = _torch()
        dev, dtype, _, shape = _tensor(torch, x, "x")
        B, N, D = _batched(shape)
        _need(torch, idx, "idx", (B, N), torch.int32, dev)
        if not isinstance(K, int) or K < 1:
            raise ValueError(f"K = {K!r}: expected an integer >= 1")
        updates = [v for v in self.definition.get("update_variants", []) if v["dtype"] == dtype]
        if kernel:
            v = next((v for v in updates if v["name"] == kernel), None)
        else:        # the privatized chunk where it pays, else 256 (a library built before 32
            chunk = private_chunk(B, N, K, D)    # and 64), else per-point atomics (no chunk)
            v = next((v for want in ((chunk, 256, None) if chunk else (None,))
                      for v in updates if v["ppb"] == 8 and v.get("chunk") == want), None)
        if v is None:
            raise ValueError(f"dtype {dtype}: this library has no centroid-update kernel" +
                             (f" named {kernel}" if kernel else ""))

        def launch(sums, counts):
            ptrs = {"x": x.data_ptr(), "idx": idx.data_ptr(), "sums": sums.data_ptr(),
                    "counts": counts.data_ptr()}
            with torch.cuda.device(dev):
                self.kernel(v["name"]).launch(ptrs, {"B": B, "N": N, "K": K, "D": D}, _raw_stream(dev))
        return launch, dev, (B, N, D)

    def lloyd_step(self, x, c, update_kernel=None, centroids_kernel=None):
        """One Lloyd iteration: (new centroids, assignments). Assignment and sums/counts run as
        CAKE kernels, then the division (keeping the centroid of an empty cluster) in one
        `centroids` launch that also zeroes the sums and counts, kept as a workspace per shape
        (no memset per step): the default where the library has the dtype's kernel. Measured
        beside the torch end on 109 grid shapes, 1.72x faster geomean (0.96-3.23x), every step
        correct (bench/results/2026-12-07-lloyd-ahead, call J5). `centroids_kernel=False` or
        CAKE_LLOYD_CENTROIDS=0 in the environment: the end in torch (six kernels, two memsets)."""
        torch = _torch()
        idx = self.assign(x, c)          # no c_sq: the dispatcher computes |c|^2 where it can
        K = c.shape[-2]
        if centroids_kernel is None:
            centroids_kernel = os.environ.get("CAKE_LLOYD_CENTROIDS", "1") != "0"
        name = centroids_kernel if isinstance(centroids_kernel, str) else \
            self.centroids_kernel(_tensor(torch, x, "x")[1]) if centroids_kernel else None
        if name:
            return self._lloyd_end(x, c, idx, K, name, update_kernel), idx
        # update() takes x and idx in either form; sums [B, K, D] broadcast against c [K, D].
        sums, counts = self.update(x, idx, K, kernel=update_kernel)
        filled = counts.unsqueeze(-1) > 0
        new = torch.where(filled, sums / counts.clamp(min=1).unsqueeze(-1).float(), c.float())
        new = new.to(c.dtype)
        return (new if c.dim() == 3 else new.squeeze(0)), idx

    def centroids_kernel(self, dtype):
        """The library's `centroids` kernel of a dtype name, or None (a library built before it)."""
        return self._centroids.get(dtype)

    def _lloyd_end(self, x, c, idx, K, name, update_kernel):
        """The new centroids by the `centroids` kernel `name` from sums and counts accumulated
        into a zeroed workspace, which the kernel leaves zeroed again (families/centroids.py)."""
        torch = _torch()
        update, dev, (B, N, D) = self._update_launch(x, idx, K, update_kernel)
        sums = self._workspace(("lloyd_sums", x.device, B, K, D), (B, K, D), torch.float32)
        counts = self._workspace(("lloyd_counts", x.device, B, K), (B, K), torch.int32)
        new = torch.empty(B, K, D, dtype=c.dtype, device=x.device)
        try:
            update(sums, counts)
            with torch.cuda.device(dev):
                self.kernel(name).launch(
                    {"sums": sums.data_ptr(), "counts": counts.data_ptr(), "c": c.data_ptr(),
                     "new": new.data_ptr()},
                    {"B": B, "K": K, "D": D, "CB": c.shape[0] if c.dim() == 3 else 1}, _raw_stream(dev))
        except Exception:
            sums.zero_()         # whatever was added stays out of the next step's sums
            counts.zero_()
            raise
        return new if c.dim() == 3 else new.squeeze(0)

    def _tensor_maps(self, name, ptrs, sizes, device):
        """{tma parameter: device address of its encoded map}, encoded and uploaded once per
        (kernel, pointers, sizes)."""
        import torch
        described = {p["tensor"] for p in self._variants[name]["manifest"]["params"] if p["kind"] == "tma"}
        key = (name, tuple(sorted((t, a) for t, a in ptrs.items() if t in described)),
               tuple(sorted(sizes.items())))
        maps = self._maps.get(key)
        if maps is None:
            _not_capturing(torch, "tensor maps encoded and uploaded")
            encoded = self.kernel(name).tensor_maps(ptrs, sizes)
            names = sorted(encoded)
            dev = torch.frombuffer(bytearray(b"".join(encoded[n] for n in names)),
                                   dtype=torch.uint8).to(device)
            maps = (dev, {n: dev.data_ptr() + 128 * i for i, n in enumerate(names)})
            if len(self._maps) > 64:
                self._maps.clear()
            self._maps[key] = maps
        return maps[1]

    def _workspace(self, key, shape, dtype, fill=0):
        import torch
        ws = self._spaces.get(key)
        if ws is None:
            _not_capturing(torch, "a workspace")
            if len(self._spaces) > 32:
                self._spaces.clear()
                self._maps.clear()
            ws = self._spaces[key] = torch.full(shape, fill, dtype=dtype, device=key[1])
        return ws

    def _staged(self, what, t, width):
        """t [B, R, D] copied into a zero-padded [B, R, width] workspace."""
        B, R, D = t.shape
        ws = self._workspace((what, t.device, t.dtype, B, R, width), (B, R, width), t.dtype)
        ws[:, :, :D].copy_(t)
        return ws


# The privatized update (partial sums of a chunk of points in shared memory) wins where many
# points add into each centroid row: measured (bench/results/2026-12-02-library-kmeans-6/lloyd-0.*)
# 7.4x at 548905 points per centroid, 8.3x at 50529, 1.41x at 2477, 1.05x at 3386, even at 92-399,
# and 1.5-2.2x slower at 116-173 with few points per block. It keeps partials only while
# K * D <= 8192 (shared memory), otherwise it is per-point atomics with extra work.
PRIVATE_MIN_POINTS_PER_CENTROID = 1000
PRIVATE_MAX_KD, PRIVATE_MAX_K = 8192, 1024      # family.py's UPDATE_SMEM_SUMS, UPDATE_SMEM_COUNTS
# Chunks of 256 points leave few blocks on small problems, each warp loading its 32 points one after
# another. Under 264 blocks at 256 (2 per SM of an H100) the chunks of 32 and 64 were 1.15-5.0x
# faster on all 23 such grid shapes (bench/results/2026-12-08-update-chunks, call U): 64 where it
# still gives 512 blocks, else 32 (the fastest at 22 of the 23 shapes, 9% off at the other).
# Above 264 blocks only 256 has been measured.
PRIVATE_FEW_BLOCKS, PRIVATE_SMALL_CHUNK_BLOCKS = 264, 512


def private_chunk(B, N, K, D):
    """The update's chunk for a shape: 256, 64 or 32 points (privatized), or None (per-point
    global atomics, 8 points per block: the default elsewhere)."""
    if not (B * N >= PRIVATE_MIN_POINTS_PER_CENTROID * K and K * D <= PRIVATE_MAX_KD
            and K <= PRIVATE_MAX_K):
        return None
    if B * -(-N // 256) >= PRIVATE_FEW_BLOCKS:
        return 256
    return 64 if B * -(-N // 64) >= PRIVATE_SMALL_CHUNK_BLOCKS else 32


def _not_capturing(torch, what):
    """A first call for new tensors allocates and uploads: not possible inside a graph capture."""
    if torch.cuda.is_current_stream_capturing():
        raise RuntimeError(f"kmeans_assign: the first call for these tensors needs {what}, which "
                           "cannot happen during CUDA graph capture: make the same call once "
                           "before capturing")


_TORCH = None
_RAW_STREAM = None
_CURRENT_DEVICE = None
_DTYPE_NAMES = {}            # torch dtype -> its name, for the served ones


def _torch():
    """torch, imported on the first call (the module imports without it: route() is CPU-only)."""
    global _TORCH, _RAW_STREAM, _CURRENT_DEVICE
    if _TORCH is None:
        import torch
        _DTYPE_NAMES.update({getattr(torch, n): n for n in _TORCH_DTYPES})
        # torch's own calls under its public ones (no lazy-init check: a CUDA tensor in hand
        # has passed it), where this torch has them.
        raw = getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream", None)
        _RAW_STREAM = raw or (lambda dev: torch.cuda.current_stream(dev).cuda_stream)
        _CURRENT_DEVICE = getattr(getattr(torch, "_C", None), "_cuda_getDevice", None) or \
            torch.cuda.current_device
        _TORCH = torch
    return _TORCH


def _raw_stream(device_index):
    """The current stream of a device as a raw CUstream handle."""
    return _RAW_STREAM(device_index)


def _need(torch, t, name, shape, dtype, device):
    """t is a contiguous `dtype` tensor of `shape` (or shape[1:] when shape[0] is 1: the 2-D
    call) on CUDA device index `device`, or an error naming it."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch tensor, got {type(t).__name__}")
    if not t.is_cuda or t.get_device() != device:
        raise ValueError(f"{name}: on {t.device}, x is on cuda:{device}")
    if t.dtype != dtype:
        raise TypeError(f"{name}: dtype {t.dtype}, expected {dtype}")
    got = t.shape
    if not (got == shape or (shape[0] == 1 and got == shape[1:])) or not t.is_contiguous():
        raise ValueError(f"{name}: expected a contiguous tensor of shape {list(shape)}, "
                         f"got {list(got)}{'' if t.is_contiguous() else ' (not contiguous)'}")


def _tensor(torch, t, name):
    """(device index, dtype name, torch dtype, shape) of a contiguous CUDA tensor [B, rows, D] or
    [rows, D] of a served dtype, or an error naming it. Each attribute is read once (the checks
    are most of the host time of a call)."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch tensor, got {type(t).__name__}")
    if not t.is_cuda:
        raise ValueError(f"{name}: on {t.device}; a CUDA tensor is needed")
    shape = t.shape
    if len(shape) not in (2, 3):
        raise ValueError(f"{name}: expected [B, rows, D] or [rows, D], got shape {list(shape)}")
    if not t.is_contiguous():
        raise ValueError(f"{name}: not contiguous")
    tdtype = t.dtype
    dtype = _DTYPE_NAMES.get(tdtype)
    if dtype is None:
        raise TypeError(f"{name}: dtype {tdtype}; served: float16, bfloat16, float32")
    return t.get_device(), dtype, tdtype, shape


def _batched(shape):
    """(B, rows, D) of a [B, rows, D] or [rows, D] shape (one batch)."""
    return tuple(shape) if len(shape) == 3 else (1, *shape)


def _check(torch, x, c):
    """(B, N, D, K, device index, dtype name) of x [B, N, D] and c [B, K, D] (or [N, D] and
    [K, D]), or an error naming the argument."""
    dev, dtype, xdtype, xs = _tensor(torch, x, "x")
    cdev, _, cdtype, cs = _tensor(torch, c, "c")
    if cdev != dev:
        raise ValueError(f"c: on {c.device}, x is on {x.device}")
    if cdtype != xdtype:
        raise TypeError(f"c: dtype {cdtype} differs from x's {xdtype}")
    if len(cs) != len(xs):
        raise ValueError(f"c: {len(cs)}-D while x is {len(xs)}-D")
    B, N, D = _batched(xs)
    Bc, K, Dc = _batched(cs)
    if Bc != B:
        raise ValueError(f"c: batch {Bc}, x has {B}")
    if Dc != D:
        raise ValueError(f"c: D = {Dc}, x has D = {D}")
    for name, v in (("x: N", N), ("x: D", D), ("c: K", K), ("x: B", B)):
        if v == 0:
            raise ValueError(f"{name} = 0: nothing to assign")
    return B, N, D, K, dev, dtype
