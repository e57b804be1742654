"""Family `wy`: KDA forward in two passes on tensor cores, chunks of 16 tokens.

The chunked form of the delta rule splits into what depends only on a chunk's inputs and what
depends on the state. For a chunk of n <= 16 tokens (rows past n are zero), with G the
within-chunk cumulative log2-decay per channel, b = sigmoid(beta), and the state S [K, V]:

    kdec = k^ 2^G,  qdec = q^ 2^G,  kinv = k^ 2^-G,  krest = kinv 2^G_last,  dlast = 2^G_last
    L = tril(diag(b) kdec kinv^T, -1),  Mq = tril(qdec kinv^T),  INVb = (I + L)^-1 diag(b)
    U = INVb (v - kdec S),  O = qdec S + Mq U,  S <- diag(dlast) S + krest^T U

Pass 1 (`kda_wy_prep`, one block per (chunk slot, head), all chunks in parallel) computes
everything left of U: the norms, gates and sigmoid, the cumulative decay, L and Mq on mma.sync,
INVb by forward substitution, and writes kdec, qdec, krest^T, Mq, INVb and dlast to workspace
arrays indexed by the chunk's slot: bos / 16 + chunk + sequence, unique and < C = T / 16 + N + 2.
A block finds its sequence by bisection over cu_seqlens (the slots of a sequence start at
bos / 16 + n, increasing in n), so the host needs no sequence length: kda_fwd launches both passes
without reading cu_seqlens back.

Pass 2 walks the chunks of each (state columns, head, sequence) in order, the state in registers
and never shared; every product's result is the next one's operand:

    W^T = S^T kdec^T,  V'^T = v^T - W^T,  U^T = V'^T INVb^T,  O = qdec S + Mq U,
    S^T <- S^T diag(dlast) + U^T krest^T

The operands of the next two chunks are copied by cp.async into a ring of three stages while one
computes: one block barrier per chunk. Two forms (and two workspace layouts, see wy_common.py):
- `kda_wy_state_g{64,128}` (wy_state_wg.py, wgmma): a warpgroup owns 64 state columns, S^T one
  m64n128 accumulator, its bf16 copy the A operand from registers; B operands are row-major
  workspace tiles in swizzled shared memory (pass 1's "nat" layout); 19 wgmma and three group
  waits per chunk.
- `kda_wy_state_v{VB}[_k2]` (wy_state.py, mma.sync): a warp owns 16 state columns as m16n8k16
  accumulators whose channels are ordered so that they are, as bf16, the A fragments of S^T and
  the B fragments of S; the workspace is in fragment order (one 16-byte shared load per operand
  and lane); `_k2` splits the channels between two warps that exchange partial products.

`kda_wy_g64_c32` walks chunks of 32 tokens: pass 1 (`kda_wy_prep_c32_nat`, wy_prep32.py)
composes each from its two 16-token halves (so no 2^-G spans more than 16 tokens) into the same
arrays with 32 rows, and the wgmma pass runs m64n32 products with two token k-steps: half the
chunks, the same three waits per chunk.

A call may split the chunk slots into K consecutive ranges (kda_fwd's `segments`, the library's
"segments" rule): pass 1 and pass 2 then run once per range (grid P = the range's slots, scalars
slot_lo and slot_hi), pass 2 of range i on a side stream after pass 1 of range i, beside pass 1
of range i + 1; pass 2 works on the chunks of its sequence inside the range, starting from
initial_state where the sequence begins there and otherwise from the state its previous launch
left in ws_hs (fp32), and writes final_state where the sequence ends, ws_hs otherwise. K = 1 is
one launch of each pass, which never touches ws_hs.

Files: wy_common.py (sizes, workspace, names, emitters), wy_prep.py (pass 1), wy_prep32.py (pass 1
for chunks of 32), wy_state.py (pass 2 on mma.sync and the cp.async plan), wy_state_wg.py (pass 2
on wgmma, chunks of 16 or 32).

2^-G reaches e^(16 |lower_bound|): the family serves lower_bound >= -5 (MAX_NEG_BOUND), like
FlashKDA's own form; the router sends lower gates to the recurrent family.
"""

# The family's interface (build.py, kda tests): C, MAX_NEG_BOUND, name, slices, variants, stages.
from wy_common import C, MAX_NEG_BOUND, SHAPES, WG_VBS, name, prep_name, slices, state_name  # noqa: F401
from wy_prep import generate_prep
from wy_prep32 import generate_prep32
from wy_state import generate_state
from wy_state_wg import generate_state_wg


def variants():
    return [{"vb": vb, "ks": ks} for vb, ks in SHAPES] + [{"vb": vb, "mma": "wgmma"} for vb in WG_VBS] + \
        [{"vb": 64, "mma": "wgmma", "chunk": 32}]


def stages(p):
    """The variant's kernels in launch order."""
    if p.get("mma") == "wgmma" and p.get("chunk", C) == 32:
        return [(prep_name("nat", 32), generate_prep32()), (state_name(p), generate_state_wg(p))]
    if p.get("mma") == "wgmma":
        return [(prep_name("nat"), generate_prep("nat")), (state_name(p), generate_state_wg(p))]
    return [(prep_name(), generate_prep()), (state_name(p), generate_state(p))]
