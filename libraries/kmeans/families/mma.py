"""Family `mma` (sm_80+ mma.sync; fp16/bf16): the simt kernel with the dot product over a constant
D class `dp` (a multiple of 32 up to 256; masked loads read zeros past the real D), rewritten by
the compiler's tensorize tactic (cake-tactic-tensorize: ldmatrix + mma.sync m16n8k16, the
centroids staged through shared memory in tiles of `tile`, `rows` points per warp). No TMA and
no pipeline to fill: meant for small problems. The host pads D to a multiple of 8 (the tactic's
16-byte vector loads), like the wgmma family.
"""
from .common import DTYPES
from .simt import generate_simt, simt_name

MMA_DP = tuple(range(32, 257, 32))


def mma_name(p):
    return "km_{t}_mma_d{dp}_r{rows}_t{tile}".format(t=DTYPES[p["dtype"]][0], **p)


def mma_tactic(p):
    """The cake-opt pipeline that turns the seed into the variant."""
    return "builtin.module(cake-tactic-tensorize{tile=%d rows=%d})" % (p["tile"], p["rows"])


def generate_mma_seed(p):
    if p["dtype"] == "float32" or p["dp"] not in MMA_DP:
        raise ValueError("illegal mma variant %s" % p)
    text = generate_simt({"dtype": p["dtype"], "ppb": 4}).replace(simt_name(
        {"dtype": p["dtype"], "ppb": 4}), mma_name(p))
    text = text.replace("scf.for %j = %c0 to %ddim step %c1", "scf.for %j = %c0 to %cdp step %c1")
    text = text.replace("  %c32 = arith.constant 32 : index",
                        f"  %c32 = arith.constant 32 : index\n  %cdp = arith.constant {p['dp']} : index")
    return text.replace("%ch = cake.load %c[%b, %k, %j] :", "%ch = cake.load %c[%b, %k, %j] masked :")
