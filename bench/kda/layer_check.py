#!/usr/bin/env python3
"""End-to-end check: a KDA attention layer with CAKE's kda_fwd substituted for its kernel, against
the same layer computed in fp32 around an fp64 token recurrence (and fla's chunk_kda, when given).

    python3 bench/kda/layer_check.py --library DIR [--site FLA_SITE] [--hidden 2048 --heads 16
        --seq-lens 1500,700,2048,333] [--out layer.json]

The layer follows fla's KimiDeltaAttention (fla-core has no layers, so it is written here): q, k, v
projections each through a causal depthwise convolution (kernel 4, reset at sequence boundaries)
and SiLU; a low-rank gate projection (hidden -> 128 -> H x 128) into the kernel's gate with A_log
and dt_bias; beta logits from a projection; the kernel (l2-normalized q/k, beta sigmoid and the
gate inside); an RMS norm of each head's output gated by sigmoid of a low-rank output-gate
projection; the output projection. Weights are random (fixed seed), bf16 as served; the reference
runs the same weights in fp32 and feeds the kernel's bf16 inputs to the fp64 recurrence of
kda_bench.py. Reports max |out - ref| / max |ref| of the layer's output, for CAKE and fla.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from kda_bench import reference, seq_lens_arg, torch_and_library  # noqa: E402
KV = 128
TOL = 2e-2


def build_layer(torch, hidden, heads, gen):
    """The layer's weights {name: fp32 tensor} (served as bf16)."""
    def w(*shape, scale):
        return torch.randn(*shape, generator=gen, device="cuda") * scale
    HK = heads * KV
    return {
        "q": w(HK, hidden, scale=hidden ** -0.5), "k": w(HK, hidden, scale=hidden ** -0.5),
        "v": w(HK, hidden, scale=hidden ** -0.5),
        "conv_q": w(HK, 4, scale=0.5), "conv_k": w(HK, 4, scale=0.5), "conv_v": w(HK, 4, scale=0.5),
        "f1": w(KV, hidden, scale=hidden ** -0.5), "f2": w(HK, KV, scale=KV ** -0.5),
        "b": w(heads, hidden, scale=hidden ** -0.5),
        "A_log": torch.log(torch.empty(heads, device="cuda").uniform_(1, 16, generator=gen)),
        "dt_bias": w(heads, KV, scale=0.5),
        "g1": w(KV, hidden, scale=hidden ** -0.5), "g2": w(HK, KV, scale=KV ** -0.5),
        "g2_bias": w(HK, scale=0.1), "norm": 1.0 + w(KV, scale=0.1),
        "o": w(hidden, HK, scale=HK ** -0.5),
    }


def short_conv(torch, x, weight, cu):
    """Causal depthwise convolution (kernel 4) + SiLU of x [T, C] per sequence of cu."""
    out = torch.empty_like(x)
    for b, e in zip(cu[:-1], cu[1:]):
        if e > b:
            seg = x[b:e].t().unsqueeze(0)                                    # [1, C, L]
            y = torch.nn.functional.conv1d(seg, weight.unsqueeze(1).to(x.dtype), padding=3,
                                           groups=x.shape[1])[..., :e - b]
            out[b:e] = torch.nn.functional.silu(y[0].t())
    return out


def layer(torch, W, x, cu, heads, dtype, kernel):
    """The layer on x [T, hidden] in `dtype`; kernel(q, k, v, g, beta, A_log, dt_bias) -> o
    [1, T, H, 128] receives bf16 tensors."""
    T = x.shape[0]
    p = {n: t.to(dtype) for n, t in W.items() if n not in ("A_log", "dt_bias")}
    xd = x.to(dtype)
    q = short_conv(torch, xd @ p["q"].t(), p["conv_q"], cu)
    k = short_conv(torch, xd @ p["k"].t(), p["conv_k"], cu)
    v = short_conv(torch, xd @ p["v"].t(), p["conv_v"], cu)
    g = (xd @ p["f1"].t()) @ p["f2"].t()
    beta = xd @ p["b"].t()
    shaped = [t.to(torch.bfloat16).reshape(1, T, heads, KV).contiguous() for t in (q, k, v, g)]
    o = kernel(*shaped, beta.to(torch.bfloat16).reshape(1, T, heads).contiguous(),
               W["A_log"].float().contiguous(), W["dt_bias"].float().contiguous())
    o = o.reshape(T, heads, KV).to(dtype)
    rms = torch.rsqrt(o.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(dtype)
    gate = torch.sigmoid(((xd @ p["g1"].t()) @ p["g2"].t() + p["g2_bias"]).reshape(T, heads, KV))
    o = (o * rms * p["norm"]) * gate
    return o.reshape(T, heads * KV) @ p["o"].t()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--site", default=None, help="a folder holding fla (pip install --target)")
    ap.add_argument("--hidden", type=int, default=2048)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--seq-lens", type=seq_lens_arg, default="1500,700,2048,333")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    os.environ["FLA_FLASH_KDA"] = "0"
    if args.site:
        sys.path.insert(0, args.site)
    torch, lib = torch_and_library(args.library, "layer_check.py")
    seq_lens = args.seq_lens
    cu_list = [0]
    for s in seq_lens:
        cu_list.append(cu_list[-1] + s)
    cu = torch.tensor(cu_list, dtype=torch.int64, device="cuda")
    T, H, scale, lb = cu_list[-1], args.heads, KV ** -0.5, -5.0
    gen = torch.Generator(device="cuda")
    gen.manual_seed(11)
    W = build_layer(torch, args.hidden, H, gen)
    x = torch.randn(T, args.hidden, generator=gen, device="cuda")

    def cake(q, k, v, g, beta, A_log, dt_bias):
        return lib.fwd(q, k, v, g, beta, scale, A_log, dt_bias, lb, cu_seqlens=cu)[0]

    def ref(q, k, v, g, beta, A_log, dt_bias):
        out, _ = reference(torch, {"q": q, "k": k, "v": v, "g": g, "beta": beta, "A_log": A_log,
                                   "dt_bias": dt_bias, "h0": None, "cu": cu, "scale": scale,
                                   "lower_bound": lb})
        return out.float()

    result = {"hidden": args.hidden, "heads": H, "seq_lens": seq_lens, "kernel": lib.route(T, H, len(seq_lens), lb)}
    want = layer(torch, W, x, cu_list, H, torch.float32, ref).double()
    scale_ref = want.abs().max().item()
    got = layer(torch, W, x, cu_list, H, torch.bfloat16, cake).double()
    result["cake_err"] = (got - want).abs().max().item() / scale_ref
    if args.site:
        try:
            from fla.ops.kda import chunk_kda

            def fla(q, k, v, g, beta, A_log, dt_bias):
                return chunk_kda(q=q, k=k, v=v, g=g, beta=beta, scale=scale, initial_state=None,
                                 output_final_state=False, use_gate_in_kernel=True,
                                 use_qk_l2norm_in_kernel=True, use_beta_sigmoid_in_kernel=True,
                                 safe_gate=True, A_log=A_log, dt_bias=dt_bias, lower_bound=lb,
                                 cu_seqlens=cu)[0]
            got = layer(torch, W, x, cu_list, H, torch.bfloat16, fla).double()
            result["fla_err"] = (got - want).abs().max().item() / scale_ref
        except Exception as e:                                   # reported, not fatal
            result["fla_error"] = f"{type(e).__name__}: {e}"[:300]
    result["correct"] = bool(math.isfinite(result["cake_err"]) and result["cake_err"] <= TOL)
    print(json.dumps(result))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    sys.exit(0 if result["correct"] else 1)


if __name__ == "__main__":
    main()
