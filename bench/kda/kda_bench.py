#!/usr/bin/env python3
"""KDA forward: CAKE's kernels against FlashKDA and fla's chunk_kda, and against an fp64 reference.

    python3 bench/kda/kda_bench.py --library DIR --out rows.json [--flashkda DIR] [--site DIR]
        [--cases anchors,edges,grid] [--fla-on anchors] [--time all|routed]

--library: a built KDA library (libraries/kda/build.py). --flashkda: a folder where `import
flash_kda` works (built in place); --site: a folder holding fla (pip install --target). FLA_FLASH_KDA=0
is set so that fla measures its own Triton path.

Cases (--cases): the five anchor cases of issue 17 (timed; every CAKE variant, FlashKDA with fp32
state, fla), the grid of libraries/kda/grid.py (48 cases, 10 held out of tuning: timed against
FlashKDA, fla only with --fla-on grid) and edge cases (checked only): length-1 sequences, an empty sequence in a varlen batch, lengths
that are not a multiple of the chunk, many short sequences, gates at the lower bound -5 and far below
(-50, -1000), beta near 0 and 1, zero and given initial states. Correctness: outputs and final states
against an fp64 token recurrence on the same bf16 inputs; the error is max |x - ref| / max |ref|.
GPU times: per-call CUDA events around eager calls (3 warm-up, 15 timed, median), the same for all;
CAKE is timed with validate=False (cu_seqlens not read back to the host, as FlashKDA is called;
the correctness run validates it).
"""
import argparse
import itertools
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))

ANCHOR_CASES = [([8192], 96), ([8192], 64), ([1300, 547, 2048, 963, 271, 3063], 64), ([1024] * 8, 64),
                ([32768], 16)]
TOL = 2e-2          # bf16 outputs: a few bf16 ulps of the largest value


def edge_cases():
    """(seq_lens, H, options) that probe the edges; small enough for the fp64 reference."""
    return [
        ([1], 4, {}),
        ([1, 1, 1], 3, {"h0": True}),
        ([5, 0, 37, 1, 64], 3, {"h0": True}),
        ([0, 17], 2, {"h0": True}),
        ([1000], 8, {}),
        ([7 + (i * 37) % 23 for i in range(150)], 2, {"h0": True}),
        ([300], 4, {"lower_bound": -5.0, "g_shift": 20.0}),
        ([300], 4, {"lower_bound": -50.0, "g_shift": 20.0}),
        ([300], 4, {"lower_bound": -1000.0, "g_shift": 20.0, "h0": True}),
        ([300], 4, {"beta_shift": -20.0, "h0": True}),
        ([300], 4, {"beta_shift": 20.0}),
        ([257], 5, {"g_shift": -20.0, "h0": True}),
    ]


def make_inputs(torch, seq_lens, H, opts, gen):
    T = sum(seq_lens)
    dev = "cuda"
    r = lambda *s: torch.randn(*s, generator=gen, device=dev)  # noqa: E731
    q = r(1, T, H, 128).bfloat16()
    k = r(1, T, H, 128).bfloat16()
    v = r(1, T, H, 128).bfloat16()
    g = (r(1, T, H, 128) + opts.get("g_shift", 0.0)).bfloat16()
    beta = (r(1, T, H) + opts.get("beta_shift", 0.0)).bfloat16()
    A_log = torch.rand(H, generator=gen, device=dev)
    dt_bias = torch.rand(H, 128, generator=gen, device=dev)
    N = len(seq_lens)
    h0 = r(N, H, 128, 128) * 0.5 if opts.get("h0", True) else None
    cu = torch.tensor([0] + list(itertools.accumulate(seq_lens)), dtype=torch.int64, device=dev)
    return dict(q=q, k=k, v=v, g=g, beta=beta, A_log=A_log, dt_bias=dt_bias, h0=h0, cu=cu,
                scale=1.0 / math.sqrt(128), lower_bound=opts.get("lower_bound", -5.0))


def reference(torch, x):
    """fp64 token recurrence: (out [1, T, H, 128] fp64, final state [N, H, V, K] fp64)."""
    d = torch.float64
    q, k, v = (x[n][0].to(d) for n in ("q", "k", "v"))
    q = q / torch.sqrt((q * q).sum(-1, keepdim=True) + 1e-6)
    k = k / torch.sqrt((k * k).sum(-1, keepdim=True) + 1e-6)
    gate = torch.sigmoid(torch.exp(x["A_log"].to(d))[None, :, None] * (x["g"][0].to(d) + x["dt_bias"].to(d)))
    a = torch.exp(x["lower_bound"] * gate)
    b = torch.sigmoid(x["beta"][0].to(d))
    T, H, _ = q.shape
    out = torch.zeros(T, H, 128, dtype=d, device=q.device)
    cu = x["cu"].tolist()
    N = len(cu) - 1
    final = torch.zeros(N, H, 128, 128, dtype=d, device=q.device)
    for n in range(N):
        S = x["h0"][n].to(d).transpose(-1, -2).clone() if x["h0"] is not None else \
            torch.zeros(H, 128, 128, dtype=d, device=q.device)          # [H, K, V]
        for t in range(cu[n], cu[n + 1]):
            S = a[t][:, :, None] * S
            u = torch.einsum("hk,hkv->hv", k[t], S)
            S = S + b[t][:, None, None] * k[t][:, :, None] * (v[t] - u)[:, None, :]
            out[t] = x["scale"] * torch.einsum("hk,hkv->hv", q[t], S)
        final[n] = S.transpose(-1, -2)
    return out[None], final


def rel_err(torch, got, ref):
    if got is None:
        return None
    got = got.to(torch.float64)
    if not torch.isfinite(got).all():
        return float("inf")
    scale = ref.abs().max().item() or 1.0
    return (got - ref).abs().max().item() / scale


def event_time(torch, fn, warm=3, iters=15):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def seq_lens_arg(text):
    """argparse type: '1500,700,0' -> [1500, 700, 0] (at least one token in all)."""
    try:
        lens = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if any(n < 0 for n in lens) or sum(lens) < 1:
        raise argparse.ArgumentTypeError(f"lengths must be >= 0 with at least one token, got {text!r}")
    return lens


def torch_and_library(path, script):
    """(torch, KDALibrary at `path`), or exit 2 with one line saying what is missing."""
    try:
        import torch
    except ImportError as e:
        sys.exit(f"{script}: needs torch ({e})")
    if not torch.cuda.is_available():
        sys.exit(f"{script}: needs a CUDA device (torch sees none)")
    from cake_library.kda import KDALibrary
    try:
        return torch, KDALibrary(path)
    except (OSError, ValueError) as e:
        print(f"{script}: --library {path}: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--flashkda", default=None)
    ap.add_argument("--site", default=None)
    ap.add_argument("--cases", default="anchors,edges",
                    help="anchors, edges, grid (libraries/kda/grid.json: timed, held-out rows marked)")
    ap.add_argument("--grid", default=os.path.join(HERE, "..", "..", "libraries", "kda", "grid.json"))
    ap.add_argument("--fla-on", default="anchors",
                    help="case sets fla is timed on (its autotuning costs tens of seconds per new shape)")
    ap.add_argument("--time", choices=("all", "routed"), default="all",
                    help="CAKE variants timed: all that serve the case, or only the routed one (every "
                         "variant is checked for correctness either way)")
    ap.add_argument("--segments", default=None,
                    help="comma-separated slot-range counts (kda_fwd's segments=) at which the routed "
                         "variant is also checked and, on timed cases, timed (row['segments'])")
    args = ap.parse_args()
    try:
        seg_counts = [int(x) for x in args.segments.split(",")] if args.segments else []
        if any(k < 1 for k in seg_counts):
            raise ValueError
    except ValueError:
        ap.error(f"--segments: expected positive integers, got {args.segments!r}")
    unknown = set(args.cases.split(",")) - {"anchors", "edges", "grid"}
    if unknown:
        ap.error(f"--cases: unknown {', '.join(sorted(unknown))}; expected anchors, edges, grid")
    unknown = set(args.fla_on.split(",")) - {"anchors", "grid", "none"}
    if unknown:
        ap.error(f"--fla-on: unknown {', '.join(sorted(unknown))}; expected anchors, grid or none")
    os.environ["FLA_FLASH_KDA"] = "0"
    for p in (args.site, args.flashkda):
        if p:
            sys.path.insert(0, p)
    torch, lib = torch_and_library(args.library, "kda_bench.py")
    flash_kda = chunk_kda = None
    if args.flashkda:
        try:
            import flash_kda
        except Exception as e:          # the row says the anchor is missing
            print(f"flash_kda unavailable: {e}", flush=True)
    if args.site:
        try:
            from fla.ops.kda import chunk_kda
        except Exception as e:
            print(f"fla unavailable: {e}", flush=True)
    gen = torch.Generator(device="cuda")
    rows = []
    plan = []
    if "anchors" in args.cases:
        plan += [(s, h, {}, True, True, "anchors") for s, h in ANCHOR_CASES]
    if "edges" in args.cases:
        plan += [(s, h, o, False, False, "edges") for s, h, o in edge_cases()]
    if "grid" in args.cases:
        try:
            with open(args.grid) as f:
                plan += [(c["seq_lens"], c["H"], {"lower_bound": c["lower_bound"], "h0": c["h0"]},
                          True, not c["heldout"], "grid") for c in json.load(f)["cases"]]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"kda_bench.py: --grid {args.grid}: {type(e).__name__}: {e}", file=sys.stderr)
            sys.exit(2)
    for i, (seq_lens, H, opts, timed, tuned, part) in enumerate(plan):
        gen.manual_seed(7000 + i)
        x = make_inputs(torch, seq_lens, H, opts, gen)
        N, T = len(seq_lens), sum(seq_lens)
        row = {"seq_lens" if N > 1 else "T": seq_lens if N > 1 else T, "H": H, "tuned": tuned,
               "set": part, "options": opts, "kernel": lib.route(T, H, N, x["lower_bound"])}
        ref_out, ref_state = reference(torch, x)

        def cake(name, x=x, validate=True, segments=None):
            return lib.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], x["A_log"], x["dt_bias"],
                           x["lower_bound"], initial_state=x["h0"], output_final_state=True,
                           cu_seqlens=x["cu"], kernel=name, validate=validate, segments=segments)
        row["variants"] = {}
        for name in sorted(lib.variants):
            if not lib.serves(name, x["lower_bound"]):
                continue
            o, s = cake(name)
            torch.cuda.synchronize()
            e = {"err_out": rel_err(torch, o, ref_out), "err_state": rel_err(torch, s, ref_state)}
            if timed and (args.time == "all" or name == row["kernel"]):
                # Timed as FlashKDA is called: without reading cu_seqlens back to the host (the
                # correctness run above validated it; the kernels clamp the offsets anyway).
                e["ms"] = event_time(torch, lambda: cake(name, validate=False))
            row["variants"][name] = e
        if seg_counts:
            row["segments"] = {}
            for sc in seg_counts:
                o, st = cake(row["kernel"], segments=sc)
                torch.cuda.synchronize()
                e = {"err_out": rel_err(torch, o, ref_out), "err_state": rel_err(torch, st, ref_state)}
                if timed:
                    e["ms"] = event_time(torch, lambda sc=sc: cake(row["kernel"], validate=False, segments=sc))
                row["segments"][sc] = e
            print(f"  segments ({row['kernel']}): " + " ".join(
                f"{sc}: {e.get('ms', float('nan')):.3f} ({e['err_out']:.1e}/{e['err_state']:.1e})"
                for sc, e in row["segments"].items()), flush=True)
        best = row["variants"][row["kernel"]]
        row["max_rel_err_out"], row["max_rel_err_state"] = best["err_out"], best["err_state"]
        row["cake_ms"] = best.get("ms")
        row["correct"] = all(e["err_out"] <= TOL and e["err_state"] <= TOL
                             for e in list(row["variants"].values()) + list(row.get("segments", {}).values()))
        if flash_kda is not None and opts.get("lower_bound", -5.0) >= -5.0:
            try:
                out = torch.empty_like(x["v"])
                h0 = x["h0"] if x["h0"] is not None else torch.zeros(N, H, 128, 128, device="cuda")
                fs = torch.empty_like(h0)
                fn = lambda: flash_kda.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], out,  # noqa
                                           x["A_log"], x["dt_bias"], x["lower_bound"], initial_state=h0,
                                           final_state=fs, cu_seqlens=x["cu"] if N > 1 else None)
                fn()
                torch.cuda.synchronize()
                row["flashkda_err_out"] = rel_err(torch, out, ref_out)
                row["flashkda_err_state"] = rel_err(torch, fs, ref_state)
                if timed:
                    row["flashkda_ms"] = event_time(torch, fn)
            except Exception as e:
                row["flashkda_error"] = f"{type(e).__name__}: {e}"[:300]
        if chunk_kda is not None and timed and part in args.fla_on.split(","):
            try:
                h0 = x["h0"] if x["h0"] is not None else torch.zeros(N, H, 128, 128, device="cuda")
                fn = lambda: chunk_kda(q=x["q"], k=x["k"], v=x["v"], g=x["g"], beta=x["beta"],  # noqa
                                       scale=x["scale"], initial_state=h0, output_final_state=True,
                                       use_gate_in_kernel=True, use_qk_l2norm_in_kernel=True,
                                       use_beta_sigmoid_in_kernel=True, safe_gate=True,
                                       A_log=x["A_log"], dt_bias=x["dt_bias"],
                                       lower_bound=x["lower_bound"], transpose_state_layout=True,
                                       cu_seqlens=x["cu"] if N > 1 else None)
                o, fs = fn()
                torch.cuda.synchronize()
                row["fla_err_out"] = rel_err(torch, o, ref_out)
                row["fla_err_state"] = rel_err(torch, fs, ref_state)
                row["fla_ms"] = event_time(torch, fn)
            except Exception as e:
                row["fla_error"] = f"{type(e).__name__}: {e}"[:300]
        rows.append(row)
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
        times = " ".join(f"{n[4:]} {e.get('ms', float('nan')):.3f} ({e['err_out']:.1e})"
                         for n, e in row["variants"].items())
        print(f"[{i}] N{N} T{T} H{H} {opts} cake {row['cake_ms']} ({times}) flashkda "
              f"{row.get('flashkda_ms')} fla {row.get('fla_ms')} err {row['max_rel_err_out']:.2e}/"
              f"{row['max_rel_err_state']:.2e} fk_err {row.get('flashkda_err_out')} "
              f"fla_err {row.get('fla_err_out')} ok {row['correct']} {row.get('flashkda_error', '')}"
              f"{row.get('fla_error', '')}", flush=True)
    for part in ("anchors", "grid"):
        for held in (False, True):
            timed = [r for r in rows if r["set"] == part and r.get("cake_ms") and r.get("flashkda_ms")
                     and r["tuned"] != held]
            if timed:
                gm = math.exp(sum(math.log(r["flashkda_ms"] / r["cake_ms"]) for r in timed) / len(timed))
                print(f"{part}{' held-out' if held else ''}: geomean speed-up over FlashKDA on "
                      f"{len(timed)} cases: {gm:.3f}")
    print(f"correct: {sum(r['correct'] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
