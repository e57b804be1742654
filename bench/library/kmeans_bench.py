#!/usr/bin/env python3
"""Measures the KMeans library on a shape grid against flashlib and flash-kmeans, in one process.

    python3 bench/library/kmeans_bench.py --library DIR --grid grid.json --phase tune --out tune.json
    python3 bench/library/kmeans_bench.py --library DIR --grid grid.json --phase final \
        --anchors SITE --out rows.json

tune:  every configuration legal for each tuning shape (held-out shapes are skipped), checked and
       timed; writes the routing table's points ({"dtype", "B", "N", "D", "K", "ms": {config: ms}}).
final: every shape of the grid through the library's router (kmeans_assign, c_sq given), beside
       flashlib 0.4.0's and flash-kmeans 0.3.1's euclid_assign_triton (c_sq given) in the same
       process; writes one row per shape (fields of libraries/README.md).
lloyd: one Lloyd iteration per shape (lloyd_step) against flashlib's loop body, both checked
       against an fp64 centroid update from their own assignments.

GPU times: each call is warmed up, then a CUDA graph of n back-to-back calls (n chosen from a
20-call graph for about 1 ms) is replayed for 30 ms (the clock ramps up), then 7 times (3 when
one call takes over 20 ms), each timed replay right after a ~10 ms busy spin; the median replay
over n. The same for every kernel, so launch gaps and
the host's Python are out of every number. Correctness: assignments against an fp64 reference on
random data and on clustered data (points near centroids): `exact` is the share equal to the
reference's argmin, `correct` means every other choice is a near tie (its fp64 distance within
tol * (|x|^2 + |c|^2) of the best; tol 1e-5 for fp16/bf16 inputs, 2e-3 for fp32 read as tf32).
"""
import argparse
import faulthandler
import fnmatch
import json
import math
import os
import signal
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))

RATES = {"float16": 674e12, "bfloat16": 721e12, "float32": 360e12}   # ANCHORS.md, cuBLAS 8192^3
BANDWIDTH = 4.24e12
TOL = {"float16": 1e-5, "bfloat16": 1e-5, "float32": 2e-3}
LLOYD_TOL = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-4}   # new centroids' relative error


def floor_ms(s):
    el = 4 if s["dtype"] == "float32" else 2
    flops = 2.0 * s["B"] * s["N"] * s["K"] * s["D"]
    bytes_ = (s["B"] * (s["N"] + s["K"]) * s["D"]) * el + 4 * s["B"] * (s["K"] + s["N"])
    return max(flops / RATES[s["dtype"]], bytes_ / BANDWIDTH) * 1e3


SPIN_CYCLES = int(os.environ.get("CAKE_SPIN_CYCLES", 2_000_000))   # ~1 ms at the boost clock


def graph_time(torch, fn, target_ms=1.0, spin=None):
    fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    torch.cuda.synchronize()
    eager = max(a.elapsed_time(b), 1e-3)
    # The replay count comes from a short graph, not from the eager call: an eager call of a tiny
    # kernel takes the host's time (tens of us through a Python wrapper), so n came out ~10 and
    # each replay's submission gap (the GPU idles between the first event and the graph's first
    # node) was spread over too few calls: +5-7 us per call for the slower wrapper.
    one = eager
    if eager < 0.2:
        probe = torch.cuda.CUDAGraph()
        with torch.cuda.graph(probe):
            for _ in range(20):
                fn()
        probe.replay()
        a.record()
        probe.replay()
        b.record()
        torch.cuda.synchronize()
        del probe
        one = max(min(eager, a.elapsed_time(b) / 20), 1e-3)
    n = max(1, min(1000, int(target_ms / one)))
    reps = 7 if one < 20 else 3          # slow kernels: fewer replays, same median rule
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            fn()
    # Replay for at least 30 ms first: the GPU idles at a low clock and needs sustained work to
    # reach its boost clock (seen on the H200: 345 MHz idle), the same for every kernel timed.
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 0.03:
        g.replay()
        torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        # A busy spin right before each timed replay: without it the clock can sink during the
        # host-side gaps (graph capture of a slow Python wrapper keeps the GPU idle for tens of
        # ms; 345 MHz idle vs 1980 MHz boost is the 5.7x seen between the same tiny kernel
        # launched bare, 1.64 us, and through the Python launcher, 9.92 us: diag_launch.py).
        # Not yet validated on the GPU (session 9 ran out of device time).
        if spin or (spin is None and SPIN_CYCLES):
            torch.cuda._sleep(SPIN_CYCLES if spin is None else spin)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) / n)
    del g
    return sorted(times)[len(times) // 2]


def host_time(torch, fn, calls=50):
    """Median host microseconds of one call (no synchronization inside the loop)."""
    fn()
    torch.cuda.synchronize()
    host = []
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        host.append((time.perf_counter() - t0) * 1e6)
    torch.cuda.synchronize()
    return sorted(host)[calls // 2]


def make_inputs(torch, s, clustered, gen):
    dt = getattr(torch, s["dtype"])
    B, N, D, K = s["B"], s["N"], s["D"], s["K"]
    c = torch.randn(B, K, D, device="cuda", generator=gen)
    if clustered:
        pick = torch.randint(0, K, (B, N), device="cuda", generator=gen)
        x = torch.gather(c, 1, pick.unsqueeze(-1).expand(B, N, D))
        x = x + 0.05 * torch.randn(B, N, D, device="cuda", generator=gen)
    else:
        x = torch.randn(B, N, D, device="cuda", generator=gen)
    x, c = x.to(dt).contiguous(), c.to(dt).contiguous()
    csq = (c.float() ** 2).sum(-1).contiguous()
    return x, c, csq, (x.float() ** 2).sum(-1).contiguous()


def judge(torch, s, x, c, idx):
    """(exact share, correct) of idx [B, N] against fp64."""
    B, N, K = s["B"], s["N"], s["K"]
    c64 = c.double()
    csq = (c64 ** 2).sum(-1)
    exact, ok = 0, True
    rows = max(1, int(2 ** 27 // max(K, 1)))      # keeps the distance block at 1 GiB
    for b in range(B):
        for n0 in range(0, N, rows):
            xs = x[b, n0:n0 + rows].double()
            dist = csq[b][None, :] - 2.0 * xs @ c64[b].T
            best, ref = dist.min(-1)
            got = idx[b, n0:n0 + rows].long()
            if got.min().item() < 0 or got.max().item() >= K:
                return exact / (B * N), False
            chosen = dist.gather(-1, got.unsqueeze(-1)).squeeze(-1)
            scale = (xs ** 2).sum(-1) + csq[b][ref]
            exact += (got == ref).sum().item()
            ok = ok and bool(((chosen - best) <= TOL[s["dtype"]] * scale + 1e-12).all().item())
    return exact / (B * N), ok


def load_anchors(site):
    sys.path.insert(0, site)
    from flashlib.primitives.kmeans.triton.assign import euclid_assign_triton as flashlib_assign
    from flash_kmeans.assign_euclid_triton import euclid_assign_triton as fk_assign
    return flashlib_assign, fk_assign


def _prewarm_worker(job):
    """One process of prewarm_anchors: both anchors (lloyd: flashlib's Lloyd step) called once per
    shape (nothing measured)."""
    site, shapes, lloyd_step, memory_share = job
    import torch
    if memory_share:        # the measuring process keeps the rest (call J: 12 workers took 70 GB)
        torch.cuda.set_per_process_memory_fraction(memory_share)
    flashlib_assign, fk_assign = load_anchors(site)
    if lloyd_step:
        from flashlib.primitives.kmeans.triton.update import triton_lloyd_centroid_step_euclid as fl_step
    gen = torch.Generator(device="cuda")
    for s in shapes:
        try:
            x, c, csq, xsq = make_inputs(torch, s, False, gen)
            if lloyd_step:
                fl_step(x, flashlib_assign(x, c), c)
            else:
                o = torch.empty(s["B"], s["N"], device="cuda", dtype=torch.int32)
                flashlib_assign(x, c, o, c_sq=csq)
                fk_assign(x, c, xsq, o, c_sq=csq)
                del o
            torch.cuda.synchronize()
            del x, c, csq, xsq
        except Exception:      # the final reports an anchor that fails; here it only compiles
            pass
        torch.cuda.empty_cache()
    return len(shapes)


def prewarm_anchors(shapes, site, workers):
    """Compiles the anchors' Triton kernels for every shape in `workers` processes before the
    final measures anything: Triton's on-disk cache (TRITON_CACHE_DIR) then hands the measuring
    process compiled kernels. The anchors choose their configuration by a fixed heuristic (no
    autotuning), so no choice is made under the workers' contention; compiling one shape at a
    time in the measuring process took most of a final's 1.2-1.5 s per shape on an H100 host,
    and a whole-grid final (420 shapes) did not always fit one 600 s call."""
    import multiprocessing
    t0 = time.time()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        done = sum(pool.map(_prewarm_worker, [(site, shapes[i::workers], False, None) for i in range(workers)]))
    print(f"prewarm: the anchors compiled for {done} shapes in {workers} processes, "
          f"{time.time() - t0:.1f} s", flush=True)


def prewarm_lloyd_ahead(shapes, site, workers):
    """Starts `workers` processes that compile flashlib's Lloyd step (assign, sort, chunk update,
    finalize: B, N, D, K are Triton constexprs, so every shape compiles anew) in the order the
    measuring process takes the shapes, one shape at a time each, so the compile of shape i is
    usually on disk when the measurement reaches it. Not all before measuring (session 40: 420
    shapes did not compile within a call). The workers launch each kernel once, rarely beside a
    timed replay (the median of 7 filters one); flashlib picks its configurations by a fixed
    heuristic, so nothing is chosen under contention. The workers share half the GPU's memory
    (call J: 12 uncapped workers held 70 of 80 GB and the measurement ran out), and each exits
    after its shape: flashlib's wide-D kernels spill, and the driver's local-memory reservation
    for them (spill bytes per thread x every resident thread) outlives the shape and is not
    PyTorch's to cap (call J2: 8 capped workers still held 4-14 GB each). Returns the pool
    and one result per shape: the measurement waits for its shape's (call J compiled a 72 s
    shape twice, in a worker and in the measurement at once)."""
    import multiprocessing
    pool = multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=1)
    share = 0.5 / workers     # of the GPU's memory per worker; a shape above it compiles in the measurement
    compiled = [pool.apply_async(_prewarm_worker, ((site, [s], True, share),)) for s in shapes]
    pool.close()
    return pool, compiled


def ready_first(compiled, cap=180.0):
    """(index, seconds waited) of prewarm_lloyd_ahead's shapes in the order their compiles finish
    (the lowest ready index first), so a slow compile holds up no shape behind it (call J3: the
    wide-D shapes at the head of the list, 8 compiling at once, and no row in 380 s). When no
    compile is ready for `cap` seconds, the first pending shape is measured anyway (its compile
    then happens in the measurement)."""
    pending = list(range(len(compiled)))
    while pending:
        t = time.time()
        while not any(compiled[i].ready() for i in pending) and time.time() - t < cap:
            time.sleep(0.05)
        i = next((i for i in pending if compiled[i].ready()), pending[0])
        pending.remove(i)
        yield i, time.time() - t


def tune(torch, lib, shapes, out, families=None, configs=None, only=None, clustered=False, heldout=False):
    """`families`: measure only these; `configs`: only configurations matching one of these
    fnmatch patterns (new or re-measured configurations merged into an existing table);
    `only`: {(dtype, B, N, D, K): [configuration, ...]}, re-measure just those (finalists);
    `clustered`: each pair is also checked on clustered data (points near centroids: the
    nearest distances |c|^2 - 2 x.c are negative), as the final checks the routed kernel;
    `heldout`: the held-out shapes instead of the tuned ones (an evaluation table for
    heldout_regret.py, never merged into the routing table)."""
    points, gen = [], torch.Generator(device="cuda")
    for i, s in enumerate(shapes):
        if s["heldout"] != heldout:
            continue
        pick = None if only is None else only.get((s["dtype"], s["B"], s["N"], s["D"], s["K"]))
        if only is not None and not pick:
            continue
        try:
            legal = lib.router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])
            legal = [v for v in legal if (not families or v["family"] in families) and
                     (not configs or any(fnmatch.fnmatch(v["config"], c) for c in configs)) and
                     (pick is None or v["config"] in pick)]
        except ValueError as e:
            print(f"[{i}] {s}: {e}", flush=True)
            continue
        gen.manual_seed(1000 + i)
        x, c, csq, _ = make_inputs(torch, s, False, gen)
        near = make_inputs(torch, s, True, gen)[:3] if clustered else None
        idx = torch.empty(s["B"], s["N"], device="cuda", dtype=torch.int32)
        ms, bad = {}, {}
        for v in legal:
            try:
                fn = lambda: lib.assign(x, c, c_sq=csq, out=idx, kernel=v["name"])   # noqa: E731
                wrong = None
                for data in ((x, c, csq),) + ((near,) if near else ()):
                    idx.fill_(-1)
                    lib.assign(*data[:2], c_sq=data[2], out=idx, kernel=v["name"])
                    torch.cuda.synchronize()
                    ex, ok = judge(torch, s, data[0], data[1], idx)
                    if not ok:
                        wrong = "wrong (exact %.5f%s)" % (ex, ", clustered" if data is near else "")
                        break
                if wrong:
                    bad[v["config"]] = wrong
                    continue
                ms[v["config"]] = graph_time(torch, fn)
            except Exception as e:          # a broken variant must not stop the sweep
                bad[v["config"]] = f"{type(e).__name__}: {e}"[:300]
        points.append({"dtype": s["dtype"], "B": s["B"], "N": s["N"], "D": s["D"], "K": s["K"],
                       "ms": ms, "failed": bad})
        best = min(ms, key=ms.get) if ms else None
        print(f"[{i}] B{s['B']} N{s['N']} D{s['D']} K{s['K']} {s['dtype']}: best {best} "
              f"{ms.get(best, float('nan')):.4f} ms floor {floor_ms(s):.4f}; failed {len(bad)}",
              flush=True)
        for cfg, why in bad.items():
            print(f"    {cfg}: {why}", flush=True)
        del x, c, csq, idx, near
        with open(out, "w") as f:      # after every shape: a call cut short keeps its points
            json.dump({"points": points}, f, indent=0)
    with open(out, "w") as f:
        json.dump({"points": points}, f, indent=0)


def _autotuned(lib, row, s, device):
    """After a shape's first call: the kernel it launches from now on (autotune.py) as the row's
    kernel; where autotuning moved it off the routed one, the routed one in routed_kernel. The
    candidates' first-call times (ms) in autotune_times."""
    key = lib.tune_key(s["B"], s["N"], s["D"], s["K"], s["dtype"], device)
    if key in lib.autotuner.records:
        row["autotune_times"] = lib.autotuner.records[key]
    launched = lib.launched_kernel(*key)
    if row["kernel"] and launched != row["kernel"]:
        row["routed_kernel"], row["kernel"] = row["kernel"], launched
        row["family"] = next(v["family"] for v in lib.router.variants if v["name"] == launched)


def final(torch, lib, shapes, anchors, out):
    flashlib_assign, fk_assign = anchors
    rows, gen = [], torch.Generator(device="cuda")
    for i, s in enumerate(shapes):
        B, N, D, K = s["B"], s["N"], s["D"], s["K"]
        row = {k: s[k] for k in ("B", "N", "D", "K", "dtype")}
        row.update({"tuned": not s["heldout"], "floor_ms": floor_ms(s)})
        try:
            row["kernel"] = lib.route(B, N, D, K, s["dtype"])["kernel"]
            if lib.native is not None:     # what the C++ dispatcher launches: it must agree
                launched = lib.native.route(B, N, D, K, s["dtype"])[0]
                if launched != row["kernel"]:
                    row["route_mismatch"] = row["kernel"]
                    row["kernel"] = launched
            row["family"] = next(v["family"] for v in lib.router.variants if v["name"] == row["kernel"])
        except ValueError as e:
            row["kernel"], row["route_error"] = None, str(e)
        gen.manual_seed(5000 + i)
        exacts, correct = [], True
        for clustered in (False, True):
            x, c, csq, xsq = make_inputs(torch, s, clustered, gen)
            out_idx = torch.full((B, N), -1, device="cuda", dtype=torch.int32)
            if row["kernel"]:
                try:
                    lib.assign(x, c, c_sq=csq, out=out_idx)   # a shape outside the table: autotuned
                    torch.cuda.synchronize()
                    if not clustered:
                        _autotuned(lib, row, s, x.device)
                    ex, ok = judge(torch, s, x, c, out_idx)
                except Exception as e:
                    ex, ok, row["error"] = 0.0, False, f"{type(e).__name__}: {e}"[:300]
                exacts.append(ex)
                correct = correct and ok
            if not clustered:        # times on random data; the clustered set only checks
                for name, call in (("flashlib", lambda o: flashlib_assign(x, c, o, c_sq=csq)),
                                   ("flash_kmeans", lambda o: fk_assign(x, c, xsq, o, c_sq=csq))):
                    try:
                        o = torch.empty(B, N, device="cuda", dtype=torch.int32)
                        call(o)
                        torch.cuda.synchronize()
                        row[name + "_exact"], row[name + "_correct"] = judge(torch, s, x, c, o)
                        row[name + "_ms"] = graph_time(torch, lambda: call(o))
                    except Exception as e:
                        row[name + "_ms"], row[name + "_error"] = None, f"{type(e).__name__}: {e}"[:300]
                if row["kernel"] and "error" not in row:
                    cake = lambda: lib.assign(x, c, c_sq=csq, out=out_idx)  # noqa: E731
                    row["cake_ms"] = graph_time(torch, cake)
                    if row.get("routed_kernel"):   # what static routing would have run
                        row["cake_static_ms"] = graph_time(
                            torch, lambda: lib.assign(x, c, c_sq=csq, out=out_idx, kernel=row["routed_kernel"]))
                    # The replays overlapped each call with the previous one (programmatic
                    # launch): what they left in out_idx must still be the right answer.
                    torch.cuda.synchronize()
                    if not judge(torch, s, x, c, out_idx)[1]:
                        correct, row["error"] = False, "wrong after the timed replays"
                    # The same kernels launched the ordinary way (no overlap with the previous
                    # call of the stream): the share of cake_ms that programmatic launch saves.
                    # CAKE_BENCH_SERIAL=0 skips it: a diagnostic, a quarter of the timing work,
                    # what a whole-grid final on an H100 cannot spare in one 600 s call.
                    if lib.native is not None and os.environ.get("CAKE_BENCH_SERIAL", "1") != "0":
                        lib.native.set_programmatic_launch(False)
                        try:
                            row["cake_serial_ms"] = graph_time(torch, cake)
                        finally:
                            lib.native.set_programmatic_launch(True)
                    # Host time of one call through the Python API (no sync), median of 50:
                    # through the generated C++ dispatcher when the library has one, and through
                    # the Python launcher (host_us_python).
                    row["host_us"] = host_time(torch, cake)
                    row["native"] = lib.native is not None
                    if lib.native is not None:
                        # The C++ dispatcher alone (one ctypes call, arguments ready): what of
                        # host_us is the dispatcher and what the Python wrapper's checks.
                        args = (x.data_ptr(), c.data_ptr(), csq.data_ptr(), out_idx.data_ptr(),
                                B, N, D, K, s["dtype"], torch.cuda.current_stream().cuda_stream)
                        row["host_us_dispatch"] = host_time(torch, lambda: lib.native.assign(*args))
                        native, lib.native = lib.native, None
                        try:
                            row["host_us_python"] = host_time(torch, cake)
                        finally:
                            lib.native = native
            del x, c, csq, xsq, out_idx
        row["exact"] = min(exacts) if exacts else None
        row["correct"] = bool(row["kernel"]) and correct and "error" not in row
        row.setdefault("cake_ms", None)
        for a in ("flashlib", "flash_kmeans"):
            if row.get("cake_ms") and row.get(a + "_ms"):
                row["speedup_" + a] = row[a + "_ms"] / row["cake_ms"]
        if row.get("cake_serial_ms") and row.get("flashlib_ms"):
            row["speedup_flashlib_serial"] = row["flashlib_ms"] / row["cake_serial_ms"]
        rows.append(row)
        with open(out, "w") as f:      # after every shape: a call cut short keeps its rows
            json.dump(rows, f, indent=0)
        print(f"[{i}] B{B} N{N} D{D} K{K} {s['dtype']:<8} {row['kernel'] or '-':<28} "
              f"cake {row['cake_ms'] or float('nan'):.4f} flashlib {row.get('flashlib_ms') or float('nan'):.4f} "
              f"fk {row.get('flash_kmeans_ms') or float('nan'):.4f} ok {row['correct']}", flush=True)
        torch.cuda.empty_cache()
    with open(out, "w") as f:
        json.dump(rows, f, indent=0)
    summarize(rows)


def lloyd(torch, lib, shapes, site, out, compiled=None):
    """One Lloyd iteration (assignment + centroid update), CAKE's lloyd_step against flashlib's
    own loop body (euclid_assign_triton, then triton_lloyd_centroid_step_euclid with reused
    buffers). Both outputs are checked against an fp64 update from their own assignments.
    `compiled`: prewarm_lloyd_ahead's results; the shapes are then measured as they compile."""
    sys.path.insert(0, site)
    from flashlib.primitives.kmeans.triton.assign import euclid_assign_triton as fl_assign
    from flashlib.primitives.kmeans.triton.update import triton_lloyd_centroid_step_euclid as fl_step
    rows, gen = [], torch.Generator(device="cuda")

    def reference(x, c, idx):
        B, N, D = x.shape
        K = c.shape[1]
        sums = torch.zeros(B, K, D, device="cuda", dtype=torch.float64)
        sums.scatter_add_(1, idx.long().unsqueeze(-1).expand(B, N, D), x.double())
        counts = torch.zeros(B, K, device="cuda", dtype=torch.float64)
        counts.scatter_add_(1, idx.long(), torch.ones(B, N, device="cuda", dtype=torch.float64))
        return torch.where(counts.unsqueeze(-1) > 0, sums / counts.clamp(min=1).unsqueeze(-1), c.double())

    def error(new, ref):
        return ((new.double() - ref).norm() / ref.norm().clamp(min=1e-30)).item()

    order = ((i, None) for i in range(len(shapes))) if compiled is None else ready_first(compiled)
    for i, waited in order:
        s = shapes[i]
        if waited is not None and waited > 1:
            print(f"[{i}] waited {waited:.1f} s for a compile "
                  f"({'done' if compiled[i].ready() else 'not done: compiled here'})", flush=True)
        B, N, D, K = s["B"], s["N"], s["D"], s["K"]
        row = {k: s[k] for k in ("B", "N", "D", "K", "dtype")}
        gen.manual_seed(9000 + i)
        try:
            x, c, _, _ = make_inputs(torch, s, True, gen)
        except torch.cuda.OutOfMemoryError as e:   # the prewarm workers' spills (see prewarm_lloyd_ahead)
            row.update(cake_ms=None, flashlib_ms=None, correct=None, error=f"inputs: {e}"[:300])
            rows.append(row)
            print(f"[{i}] B{B} N{N} D{D} K{K} {s['dtype']:<8} not measured: out of memory", flush=True)
            torch.cuda.empty_cache()
            continue
        t_shape = time.time()
        try:
            new, idx = lib.lloyd_step(x, c)
            torch.cuda.synchronize()
            row["cake_err"] = error(new, reference(x, c, idx))
            row["cake_ms"] = graph_time(torch, lambda: lib.lloyd_step(x, c))
            # Eight steps back to back, no synchronization between them, each with the centroids
            # rolled along K (other indices, other sums): each kernel may start while the
            # previous one finishes (programmatic launch) and must still read what that one
            # wrote, never the step before's. The worst step's error.
            cs = [torch.roll(c, k, dims=1) for k in range(8)]
            torch.cuda.synchronize()
            chain = [lib.lloyd_step(x, ck) for ck in cs]
            torch.cuda.synchronize()
            row["cake_err_chain"] = max(error(n, reference(x, ck, j)) for (n, j), ck in zip(chain, cs))
        except Exception as e:
            row["cake_ms"], row["error"] = None, f"{type(e).__name__}: {e}"[:300]
        # The privatized updates (shared-memory partial sums per chunk of points), same call,
        # same inputs: measured beside the default before they may replace it.
        # CAKE_BENCH_PRIVATE=0 skips them (a diagnostic: a whole-grid Lloyd in one call).
        for v in lib.definition.get("update_variants", []) if os.environ.get("CAKE_BENCH_PRIVATE", "1") != "0" else ():
            if v["dtype"] != s["dtype"] or "chunk" not in v:
                continue
            try:
                step_v = lambda: lib.lloyd_step(x, c, update_kernel=v["name"])  # noqa: E731
                new_v, idx_v = step_v()
                torch.cuda.synchronize()
                err = error(new_v, reference(x, c, idx_v))
                row.setdefault("cake_private", {})[v["name"]] = {
                    "err": err, "correct": err <= LLOYD_TOL[s["dtype"]], "ms": graph_time(torch, step_v)}
            except Exception as e:
                row.setdefault("cake_private", {})[v["name"]] = {"error": f"{type(e).__name__}: {e}"[:300]}
        # The other end of the step beside the default, same inputs, with its own chain check:
        # "cake_torch_end" (the division in torch) where the default is the `centroids` kernel
        # (families/centroids.py), else "cake_centroids" (a library built before it, or
        # CAKE_LLOYD_CENTROIDS=0). Eight kernel-ended steps back to back reuse one workspace.
        # Other layouts of the centroids kernel (families/centroids.py: `_rb`, a block per row),
        # not taken by default until measured, under "cake_centroids_alt": {kernel: result}.
        end = lib.centroids_kernel(s["dtype"]) if hasattr(lib, "centroids_kernel") else None
        other = "cake_centroids"
        if end and os.environ.get("CAKE_LLOYD_CENTROIDS", "1") != "0":     # the kernel is the default
            other, end = "cake_torch_end", False
        ends = [(row, other, end)] + [
            (row.setdefault("cake_centroids_alt", {}), v["name"], v["name"])
            for v in lib.definition.get("centroids_variants", []) if v["dtype"] == s["dtype"] and v.get("row_block")]
        for into, key, end in ends if row.get("cake_err_chain") is not None else ():
            if end is None:
                continue
            try:
                step_e = lambda ck=c, end=end: lib.lloyd_step(x, ck, centroids_kernel=end)  # noqa: E731
                new_e, idx_e = step_e()
                torch.cuda.synchronize()
                err = error(new_e, reference(x, c, idx_e))
                chain = [step_e(ck) for ck in cs]
                torch.cuda.synchronize()
                err_chain = max(error(n, reference(x, ck, j)) for (n, j), ck in zip(chain, cs))
                tol = LLOYD_TOL[s["dtype"]]
                into[key] = {"err": err, "err_chain": err_chain,
                             "correct": err <= tol and err_chain <= tol, "ms": graph_time(torch, step_e)}
            except Exception as e:
                into[key] = {"error": f"{type(e).__name__}: {e}"[:300]}
        t_flashlib = time.time()
        try:
            bufs = dict(sums_buf=torch.zeros(B, K, D, device="cuda"),
                        cnts_buf=torch.zeros(B, K, device="cuda", dtype=torch.int32),
                        new_buf=torch.empty_like(c), shift_buf=torch.empty(B, K, device="cuda"))
            step = lambda: fl_step(x, fl_assign(x, c), c, **bufs)  # noqa: E731
            new, ids, _ = step()
            torch.cuda.synchronize()
            row["flashlib_err"] = error(new, reference(x, c, ids))
            row["flashlib_ms"] = graph_time(torch, step)
        except Exception as e:
            row["flashlib_ms"], row["flashlib_error"] = None, f"{type(e).__name__}: {e}"[:300]
        row["seconds"] = {"cake": round(t_flashlib - t_shape, 2), "flashlib": round(time.time() - t_flashlib, 2)}
        tol = LLOYD_TOL[s["dtype"]]
        # None: not measured (call J2: out of memory), which is not a wrong answer.
        row["correct"] = (None if row.get("cake_err") is None and "out of memory" in row.get("error", "")
                          else row.get("cake_err") is not None and row["cake_err"] <= tol
                          and row.get("cake_err_chain", 0.0) <= tol)
        if row.get("cake_ms") and row.get("flashlib_ms"):
            row["speedup_flashlib"] = row["flashlib_ms"] / row["cake_ms"]
        rows.append(row)
        with open(out, "w") as f:
            json.dump(rows, f, indent=0)
        private = " ".join(f"{n.rsplit('_', 1)[-1]} {r.get('ms') or float('nan'):.4f}{'' if r.get('correct') else ' WRONG'}"
                           for n, r in row.get("cake_private", {}).items())
        ends = [(n[5:], row.get(n)) for n in ("cake_torch_end", "cake_centroids")] + \
            [(n.rsplit("_", 1)[-1], ce) for n, ce in row.get("cake_centroids_alt", {}).items()]
        for end_name, ce in ends:
            private += f" {end_name} {ce.get('ms') or float('nan'):.4f}{'' if ce.get('correct') else ' WRONG'}" if ce else ""
        print(f"[{i}] B{B} N{N} D{D} K{K} {s['dtype']:<8} cake {row.get('cake_ms') or float('nan'):.4f} "
              f"(err {row.get('cake_err', float('nan')):.1e}) flashlib {row.get('flashlib_ms') or float('nan'):.4f} "
              f"(err {row.get('flashlib_err', float('nan')):.1e}) private {private} "
              f"[{row['seconds']['cake']} + {row['seconds']['flashlib']} s]", flush=True)
        del x, c
        torch.cuda.empty_cache()
    sp = [r.get("speedup_flashlib") for r in rows if r["correct"]]
    print(f"lloyd vs flashlib: geomean {geomean(sp):.3f} over {len([x for x in sp if x])} of {len(rows)} shapes")


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def summarize(rows):
    for part, sel in (("all", rows), ("tuned", [r for r in rows if r["tuned"]]),
                      ("held-out", [r for r in rows if not r["tuned"]])):
        for a in ("flashlib", "flash_kmeans", "flashlib_serial"):
            sp = [r.get("speedup_" + a) if r["correct"] else None for r in sel]
            if a == "flashlib_serial" and not any(sp):
                continue
            served = [x for x in sp if x]
            print(f"{part:<9} vs {a:<12}: geomean {geomean(served):.3f} min "
                  f"{min(served) if served else float('nan'):.3f} over {len(served)} of {len(sel)} "
                  f"shapes (unserved or wrong: {len(sel) - len(served)})")
        moved = [r for r in sel if r.get("cake_static_ms") and r["correct"]]
        if moved:   # autotuning's gain: the same rows with the statically routed kernel
            for a in ("flashlib", "flash_kmeans"):
                static = [r[a + "_ms"] / (r.get("cake_static_ms") or r["cake_ms"]) for r in sel
                          if r["correct"] and r.get(a + "_ms") and r.get("cake_ms")]
                print(f"{part:<9} vs {a:<12}: geomean {geomean(static):.3f} with static routing "
                      f"({len(moved)} rows autotuned to another kernel)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--grid", required=True)
    ap.add_argument("--phase", choices=("tune", "final", "lloyd"), required=True)
    ap.add_argument("--anchors", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--start", type=int, default=0, help="skip the first N shapes of the grid")
    ap.add_argument("--limit", type=int, default=0, help="at most N shapes (from --start)")
    ap.add_argument("--families", default="",
                    help="tune: only these families (comma-separated), e.g. splitd,mma")
    ap.add_argument("--configs", default="",
                    help="tune: only configurations matching these patterns (comma-separated "
                         "fnmatch patterns), e.g. 'simt_*,k16_*,sd?_k16_*'")
    ap.add_argument("--prewarm", type=int, default=0,
                    help="final: compile the anchors for every shape in this many processes first; "
                         "lloyd: compile flashlib's step ahead of the measurement in this many processes")
    ap.add_argument("--clustered", action="store_true",
                    help="tune: check every pair on clustered data too (points near centroids)")
    ap.add_argument("--only", default="",
                    help="a JSON file [{dtype, B, N, D, K, configs: [...]}, ...]: tune re-measures "
                         "just these configurations of these shapes; final and lloyd run just "
                         "these shapes (configs ignored)")
    ap.add_argument("--heldout", action="store_true",
                    help="tune: the held-out shapes instead (an evaluation table: never merge it "
                         "into the routing table)")
    args = ap.parse_args()
    # A call's `timeout` ends a phase with SIGTERM (GNU timeout signals the whole process group):
    # every thread's stack goes to the log first (call J3 printed nothing in 380 s, and nothing
    # said where it stood).
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    only = None
    if args.only:
        with open(args.only) as f:
            only = {(o["dtype"], o["B"], o["N"], o["D"], o["K"]): o["configs"] for o in json.load(f)}
    import torch
    from cake_library import load
    lib = load(args.library)
    with open(args.grid) as f:
        shapes = json.load(f)["shapes"]
    if only is not None:
        # Listed shapes outside --grid are never measured (session 49: a tune list's probe points
        # silently skipped); say so, and how to reach them.
        keys = {(s["dtype"], s["B"], s["N"], s["D"], s["K"]) for s in shapes}
        outside = [k for k in only if k not in keys]
        if outside:
            print(f"kmeans_bench: {len(outside)} of the {len(only)} shapes of --only are not in "
                  f"{args.grid} (first: {outside[0]}) and are skipped; give them their own --grid "
                  f"file (run_h200.sh GRID=...)", file=sys.stderr, flush=True)
    shapes = shapes[args.start:args.start + args.limit] if args.limit else shapes[args.start:]
    if only is not None and args.phase != "tune":      # final / lloyd: just the listed shapes
        shapes = [s for s in shapes if (s["dtype"], s["B"], s["N"], s["D"], s["K"]) in only]
    t0 = time.time()
    try:
        if args.phase == "tune":
            tune(torch, lib, shapes, args.out, {f for f in args.families.split(",") if f},
                 [c for c in args.configs.split(",") if c], only, args.clustered, args.heldout)
        elif args.phase == "lloyd":
            if args.prewarm > 0:    # cheap compiles first (flashlib's compile time grows with D)
                shapes.sort(key=lambda s: (s["D"], s["K"], s["N"]))
            pool, compiled = prewarm_lloyd_ahead(shapes, args.anchors, args.prewarm) if args.prewarm > 0 else (None, None)
            try:
                lloyd(torch, lib, shapes, args.anchors, args.out, compiled)
            finally:
                if pool is not None:
                    pool.terminate()
        else:
            if args.prewarm > 0:
                try:        # only a speed-up: the final compiles whatever it did not
                    prewarm_anchors(shapes, args.anchors, args.prewarm)
                except Exception:
                    traceback.print_exc()
            final(torch, lib, shapes, load_anchors(args.anchors), args.out)
    except Exception:
        traceback.print_exc()
        return 1
    print(f"{args.phase}: {len(shapes)} shapes in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
