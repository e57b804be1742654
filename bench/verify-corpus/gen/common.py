"""Helpers for the corpus generator: each kernel is written out in full as one .mlir file under
bench/verify-corpus/{buggy,correct}/<class>/<name>.mlir with the CORPUS header."""
import os
import re

KERNELS = []


def consts(*values, indent="  "):
    return "".join(f"{indent}%c{v} = arith.constant {v} : index\n" for v in values)


def fill(template, **slots):
    """Replaces @@NAME@@ placeholders; every placeholder must be given."""
    def rep(m):
        key = m.group(1)
        if key not in slots:
            raise KeyError(f"placeholder @@{key}@@ not given")
        return str(slots[key])
    out = re.sub(r"@@([A-Z0-9_]+)@@", rep, template)
    return out


def kernel(verdict, cls, name, gpu, why, sizes, text, note=None):
    assert verdict in ("buggy", "correct"), verdict
    for k in KERNELS:
        if k["verdict"] == verdict and k["cls"] == cls and k["name"] == name:
            raise ValueError(f"duplicate {verdict}/{cls}/{name}")
    KERNELS.append(dict(verdict=verdict, cls=cls, name=name, gpu=gpu, why=why, sizes=sizes,
                        text=text, note=note))


OBSERVED = {}


def load_observed(path):
    """gpu/results-h200.json (bench/verify-corpus/gpu/run_gpu.py, merged) -> one line per kernel."""
    import json
    if not os.path.exists(path):
        return
    for r in json.load(open(path)):
        OBSERVED[(r["verdict"], r["name"])] = observed_label(r)


def observed_label(r):
    st = r["status"]
    err = r.get("error") or ""
    if st == "timeout":
        return "hang (no exit within 6 s; killed)"
    if st == "device_lost":
        return "device lost (the run never returned; cuInit then failed with CUDA_ERROR_NO_DEVICE)"
    if st == "runner_hung":
        return "hang (the runner itself never returned)"
    if st == "launch_failure":
        code = err.split(":")[1].strip().split(" ")[0] if ":" in err else err
        return f"fault ({code})"
    diffs = r.get("vs_ref")
    seeds = r.get("seeds") or [7]
    if diffs:
        # f32 sums in another order differ in the last bits: a relative L2 error up to 1e-5 with no
        # non-finite mismatch counts as the same result.
        bad = {n: d for n, d in diffs.items() if d["nonfinite_mismatch"] or d["rel_l2"] > 1e-5}
        if bad:
            n, d = sorted(bad.items())[0]
            parts = [f"{d['elements_differ']} elements of '{n}' differ"]
            if d["nonfinite_mismatch"]:
                parts.append(f"{d['nonfinite_mismatch']} non-finite where the reference is finite")
            parts.append(f"rel L2 {d['rel_l2']:.2g}")
            return f"wrong result vs {r['ref']}, seed {seeds[-1]}: " + ", ".join(parts)
        worst = max(d["rel_l2"] for d in diffs.values())
        if r["verdict"] == "correct":
            if worst:
                return f"ok, output matches {r['ref']} within rounding (rel L2 {worst:.1e}, seed {seeds[-1]})"
            return f"ok, output identical to {r['ref']} (seed {seeds[-1]})"
        return f"no difference from {r['ref']} in {len(seeds)} run(s) (seeds {','.join(map(str, seeds))})"
    if st == "wrong_result":
        return "wrong result (" + err.split(": ", 1)[-1][:90] + ")"
    if r["verdict"] == "correct":
        return "ok (ran; every output element written)"
    return "ran to completion (no correct counterpart to compare with)"


def render(k):
    why = k["why"].strip().split("\n")
    lines = [f"// CORPUS: verdict={k['verdict']} class={k['cls']}",
             f"// GPU: {k['gpu']}"]
    lines.append(f"// WHY: {why[0]}")
    lines += [f"//      {w}" for w in why[1:]]
    lines.append(f"// SIZES: {k['sizes']}")
    obs = OBSERVED.get((k["verdict"], k["name"]))
    if obs:
        lines.append(f"// H200: {obs}")
    if k["note"]:
        lines.append(f"// NOTE: {k['note']}")
    body = k["text"].strip("\n")
    assert "@@" not in body, k["name"]
    return "\n".join(lines) + "\n\n" + body + "\n"


def write_all(root):
    written = []
    for k in KERNELS:
        d = os.path.join(root, k["verdict"], k["cls"])
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, k["name"] + ".mlir")
        with open(path, "w") as f:
            f.write(render(k))
        written.append(path)
    return written


def persistent_head(grid, constants, share=True):
    """The start of a persistent kernel over 32-row tiles of x [M, K] (a 32 x 32 TMA box) that
    writes out [M], with 160 threads: signature (@@NAME@@ left to fill), the index constants, the
    tile counts and, with `share`, this block's number of tiles (`count`: bid, bid + nblocks, ...)."""
    text = ('cake.kernel @@@NAME@@(\n'
            '    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},\n'
            '    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},\n'
            '    %out: !cake.tensor<[M], f32> {cake.name = "out"})\n'
            '    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],\n'
            f'                grid = affine_map<()[m, k] -> ({grid})>}} {{\n'
            + consts(*constants) +
            '  %mdim = cake.problem_size "M"\n'
            '  %kdim = cake.problem_size "K"\n'
            '  %ktiles = arith.ceildivui %kdim, %c32 : index\n'
            '  %tiles = arith.ceildivui %mdim, %c32 : index\n'
            '  %bid = cake.block_id x\n'
            '  %nblocks = cake.grid_dim x\n')
    if share:
        text += ('  %has = arith.cmpi ult, %bid, %tiles : index\n'
                 '  %left = arith.subi %tiles, %bid : index\n'
                 '  %some = arith.ceildivui %left, %nblocks : index\n'
                 '  %count = arith.select %has, %some, %c0 : index\n')
    return text
