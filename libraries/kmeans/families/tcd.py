"""Family `tcd` (sm_80+ tensor cores, no staging): mma.sync fed by loads straight from the user's
tensors at any D (v-element loads: the manifest requires D % v == 0, so v = 1 serves odd D).
Small K and wide D are bound by streaming x, which `lanes` does on CUDA cores at 5x its FMA floor;
here the dot products cost one mma per 16 x 8 block of points x centroids per k step. A warp owns
`r` row tiles of 16 points and `kn` tiles of 8 centroids per pass (x is re-read per pass, from L2).
The dot product is a sum over D, so any bijection of D columns onto the mma's k slots, the same
for x and c, gives the same result: lane (g, q) reads `span` consecutive columns of each step
(one 16-byte load at the widest v) and feeds them, `per` at a time, to its k slots of two
sub-steps. fp16/bf16: m16n8k16, span 8; fp32: m16n8k8 on tf32 with the 3xTF32 split
(x = hi + lo; hi*hi + hi*lo + lo*hi), about fp32's accuracy, or (`tf` = 1) one tf32 product,
the precision of the wgmma/splitd fp32 kernels and of flashlib (Triton's default for fp32 dots):
a third of the mma and none of the split's ALU work. Rows past N and centroids past K are
clamped (not stored / |c|^2 = +inf), columns past D read as zero.

`hx` (D of one step): the lane's x is loaded once, before the passes over K, so any K runs with
small tiles (TCD_HOIST_KN). `sub1` (with hx): a step of one mma k-step (16 columns; fp32 8): a
lane reads `per` consecutive columns of each row instead of `span`, so D <= 16 costs one mma per
tile and pass instead of two (the second sub-step of a 32-column step multiplies zeros there).
`pf`: the D loop software-pipelined by one step (the next step's x and c loads issued before
this step's mma, carried as the loop's arguments), for warps that walk a wide D with few points,
bound by load latency. `fl` (tcd_flat.py, opt-in): x and c as
flat arrays. `cs` (persistent_tiles and stage_centroids below): a persistent grid of `pg` blocks
per SM, each copying its batch's centroids into shared memory once, one pass over K <= 8 kn for
kn up to 16. `stx` (with `cs`, v = 1; an experiment, build.py --staged-x): each point tile's x is
staged through shared memory the same way (stage_rows: coalesced element loads, zeros past N and
D), and the lanes read their fragments there 16 bytes at a time: odd D takes v = 1, and a warp's
1-element load of x straight from the tensor touches 8 rows (1.39x slower than the widest load
of the same tile, bench/results/2026-12-07-odd-d-loads).
"""
from .common import DTYPES, SM_COUNT, _argmin_step, _clamp_bounds, _count_suffix, _sizes_and_ids, _unstaged_head
from .tcd_flat import flat_bases, flat_constants, flat_row, flat_step_loads

TCD_WARPS = 4
# kn = 16 (128 centroids a pass): K 65-128 in one pass over x instead of two (session 13: that
# bucket was 0.98x flashlib, the two-pass kernels' second round trip on small shapes). Not with
# r = 2: 255 registers and spills (ptxas).
TCD_TILES = ((1, 2), (1, 4), (1, 8), (1, 16), (2, 2), (2, 4), (2, 8), (4, 1), (4, 2), (4, 4))
TCD_MAX_K = 256
TCD_MAX_PASSES = 2
# Split D (`ws` warps per block on the same rows, each taking every ws-th step of D, partial
# accumulators summed through shared memory): few points and wide D, where one warp walking all
# of D is latency-bound (B7 N4 D1238: 78 dependent steps).
TCD_SPLITS = (4, 8)
TCD_SPLIT_TILES = ((1, 2), (1, 4), (1, 8), (1, 16), (2, 4))
TCD_STATIC_SMEM = 48 * 1024                 # the split's partial sums are static shared memory
# Split K (`kw` warps per block on the same rows, warp w taking the centroid tiles w, w + kw, ...,
# their argmins merged through shared memory): few points and many centroids, where one warp per
# row tile walks all of K (B6 N2 D1224 K6577: 6 warps for the whole problem). Any K (x is a few
# rows, re-read from L1); its domain keeps it to few points (TCD_KSPLIT_POINTS).
TCD_KSPLITS = (4, 8, 16)
TCD_KSPLIT_TILES = ((1, 4), (1, 8))
TCD_KSPLIT_POINTS = 16384
TCD_KSPLIT_MIN_K = 128                      # tuned from here up (kmeans-17): not extrapolated below
# Tiles whose `fl` build spills (ptxas, sm_90a: kn = 16 holds 2 x 18 vectors of the step at once
# beside 16 accumulators; r = 4, kn = 1 spills 36 bytes at 168 registers).
TCD_FLAT_SPILLS = ((1, 16), (4, 1))
# `hx` (D of one step, 4 * span columns): the lane's x fragments are loaded once, before the
# passes over K, so a pass costs its centroids' loads, mma and argmin only and any K takes few
# centroid tiles a pass (fewer registers, more warps per SM). Small D with K past the two-pass
# limit was the library's weakest bucket (build 10: D 1-31, K 37-869, down to 0.54x flashlib).
TCD_HOIST_KN = (1, 2, 4, 8)
TF32_HI = -8192                             # 0xFFFFE000: an f32's sign, exponent and 10 mantissa bits


# `cs`: the block copies the K <= 8 kn centroids of a batch into shared memory (rows at a pitch of
# the D class `cs`, zeros past K and D), then every lane reads its centroid fragments there, 16
# bytes at a time at any D, while x comes straight from the user's tensor; the block's run of
# point tiles shares the copy. For small K at large N, where every kernel measured was latency
# bound (bench/results/2026-12-05-library-kmeans-14, calls 3, 5, 6: tiles per block had to make
# the grid one wave, hence the persistent grid).
TCD_CS_MAX_KN = 16
TCD_CS_UNROLL = 8                           # the copy's independent loads per thread and round
# Blocks per SM of the persistent grid: at 134-148 registers 3 fit (session 34: a one-wave grid
# beat 1.6 waves by 1.2x and a third of a wave by 1.9x); 2 and 4 for other register counts.
TCD_CS_BLOCKS_PER_SM = (2, 3, 4)
# The plan's `cs` variants: centroid tiles a pass (K <= 8 kn) and D classes (the copy's pitch;
# the D loop still stops at D, so a wider class costs shared memory only, not work).
# Every kn up to 10 (session 36: K71 ran kn 10 at 168 registers and 78.8 us where session 34's
# non-persistent kn 9 took 67.3): the tightest tile for each K up to 80.
TCD_CS_KN = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16)
# Classes 512-1536 for small K at wide D (session 42: c read 16 bytes at a time from the copy
# where the split-D kernels read it an element at a time) measured 0.53x the routed kernels on 8
# tuned rows (D 361-1407, K 1-11; bench/results/2026-12-06-library-kmeans-22): those kernels are
# latency-bound with one warp walking all of D, not bound by the load unit. Not built.
TCD_CS_CLASSES = (64, 128, 192, 256)
# Row tiles per warp: 2 halves the shared-memory reads of c per point (each centroid fragment
# feeds two mma) at twice the accumulators, so only up to kn 8 (r 2, kn 16 spills in the
# non-resident kernels: TCD_TILES).
TCD_CS_ROW_TILES = {1: TCD_CS_MAX_KN, 2: 8}
# Several passes over a resident copy of `ck` rows with x in registers (`hx`, D of one step):
# small D with K past one pass (build 15: D 1-11, K 97-359 among the rows below flashlib).
# Opt-in (tcd_resident_variants' `passes`): slower than the table's best at all 25 points tried.
TCD_CS_HX_KN = (2, 4, 8)
TCD_CS_HX_ROWS = (256, 512, 768)
TCD_STX_SM_BYTES = 228 * 1024              # an SM's shared memory (`stx`: stx_fits)


def persistent_tiles(w, ppb, blocks):
    """Opens `scf.for %b` over the batches of the block's share of the B x ceil(N / ppb) point
    tiles: a contiguous run of ceil(tiles / blocks) of them (batch-major, so a block crosses few
    batches and copies few centroid sets), items %ilo..%ihi its tiles in batch %b (the tile is
    the item mod the tiles per batch). Past the last tile a block's loop is empty."""
    w('  %bdim = cake.problem_size "B"')
    w(f"  %pnm = arith.constant {ppb - 1} : index")
    w(f"  %pgrid = arith.constant {blocks} : index")
    w(f"  %pgm = arith.constant {blocks - 1} : index")
    w("  %ptn = arith.addi %ndim, %pnm : index")
    w(f"  %ntiles = arith.divui %ptn, %c{ppb} : index")
    w("  %ntm = arith.subi %ntiles, %c1 : index")
    w("  %items = arith.muli %bdim, %ntiles : index")
    w("  %pch = arith.addi %items, %pgm : index")
    w("  %chunk = arith.divui %pch, %pgrid : index")
    w("  %istart = arith.muli %bx, %chunk : index")
    w("  %iend0 = arith.addi %istart, %chunk : index")
    w("  %iend = arith.minui %iend0, %items : index")
    w("  %bfirst = arith.divui %istart, %ntiles : index")
    w("  %bl = arith.addi %iend, %ntm : index")
    w("  %bend = arith.divui %bl, %ntiles : index")
    w("  scf.for %b = %bfirst to %bend step %c1 {")
    w("  %bt0 = arith.muli %b, %ntiles : index")
    w("  %bt1 = arith.addi %bt0, %ntiles : index")
    w("  %ilo = arith.maxui %istart, %bt0 : index")
    w("  %ihi = arith.minui %iend, %bt1 : index")


def cs_rows(p):
    """Centroid rows of the shared copy: `ck` (several passes over K, `hx` only), else 8 kn."""
    return p.get("ck", 8 * p["kn"])


def csm_type(ty, rows, cs):
    return f"!cake.smem<{rows}x{cs}x{ty}>"


def centroid_buffer(w, ty, rows, cs):
    """%csm, the block's shared copy of one batch's centroids, and the copy's constants."""
    copy_buffer(w, "s", "%csm", csm_type(ty, rows, cs), rows, cs, ty, "%kdim")


def copy_buffer(w, pre, dst, dst_type, rows, pitch, ty, rows_dim):
    """`dst`, a block's shared copy of `rows` rows at `pitch`, and the constants stage_rows reads
    (names starting with `pre`; the source has `rows_dim` rows)."""
    total = rows * pitch
    per_round = 32 * TCD_WARPS * TCD_CS_UNROLL
    w(f"  {dst} = cake.alloc_smem : {dst_type}")
    w(f"  %{pre}tid = cake.thread_id x")
    w(f"  %{pre}cs = arith.constant {pitch} : index")
    w(f"  %{pre}round = arith.constant {per_round} : index")
    w(f"  %{pre}rounds = arith.constant {-(-total // per_round)} : index")
    w(f"  %{pre}total = arith.constant {total} : index")
    w(f"  %{pre}zero = arith.constant 0.0 : {ty}")
    w(f"  %{pre}klast = arith.subi {rows_dim}, %c1 : index")
    w(f"  %{pre}dlast = arith.subi %ddim, %c1 : index")


def stage_centroids(w, ty, rows, cs):
    """Batch %b's centroids into %csm (zeros past K and D) between two barriers (the first: the
    block's reads of the previous batch's copy are done)."""
    stage_rows(w, "s", f"%c[%b, {{row}}, {{col}}] : !cake.tensor<[B, K, D], {ty}>", None, "%kdim",
               "%csm", csm_type(ty, rows, cs), ty)


def stage_rows(w, pre, source, row0, bound, dst, dst_type, ty):
    """Rows row0 .. of `source` (a cake.load operand with {row} and {col} holes) into `dst`
    (rows x pitch; zeros past `bound` rows and past D) between two barriers. Each round a thread
    issues TCD_CS_UNROLL clamped loads before its stores, 128 threads apart (coalesced). The
    names start with `pre`, as do the constants copy_buffer defines. `row0` None: the rows
    from 0."""
    P, ind = "%" + pre, "  "
    w(f"{ind}cake.barrier")
    w(f"{ind}scf.for {P}r = %c0 to {P}rounds step %c1 {{")
    w(f"{ind}  {P}base0 = arith.muli {P}r, {P}round : index")
    w(f"{ind}  {P}base = arith.addi {P}base0, {P}tid : index")
    for u in range(TCD_CS_UNROLL):
        w(f"{ind}  {P}o{u} = arith.constant {u * 32 * TCD_WARPS} : index")
        w(f"{ind}  {P}e{u} = arith.addi {P}base, {P}o{u} : index")
        w(f"{ind}  {P}k{u} = arith.divui {P}e{u}, {P}cs : index")
        w(f"{ind}  {P}d{u} = arith.remui {P}e{u}, {P}cs : index")
        row = f"{P}k{u}"
        if row0:
            w(f"{ind}  {P}g{u} = arith.addi {row0}, {P}k{u} : index")
            row = f"{P}g{u}"
        w(f"{ind}  {P}kc{u} = arith.minui {row}, {P}klast : index")
        w(f"{ind}  {P}dc{u} = arith.minui {P}d{u}, {P}dlast : index")
        w(f"{ind}  {P}l{u} = cake.load " + source.format(row=f"{P}kc{u}", col=f"{P}dc{u}") + f" -> {ty}")
        w(f"{ind}  {P}ik{u} = arith.cmpi ult, {row}, {bound} : index")
        w(f"{ind}  {P}id{u} = arith.cmpi ult, {P}d{u}, %ddim : index")
        w(f"{ind}  {P}in{u} = arith.andi {P}ik{u}, {P}id{u} : i1")
        w(f"{ind}  {P}v{u} = arith.select {P}in{u}, {P}l{u}, {P}zero : {ty}")
    for u in range(TCD_CS_UNROLL):
        w(f"{ind}  {P}it{u} = arith.cmpi ult, {P}e{u}, {P}total : index")
        w(f"{ind}  scf.if {P}it{u} {{")
        w(f"{ind}    cake.store {P}v{u}, {dst}[{P}k{u}, {P}d{u}] : {ty}, {dst_type}")
        w(f"{ind}  }}")
    w(f"{ind}}}")
    w(f"{ind}cake.barrier")


def stx_pitch(p):
    """`stx`: the x tile's row pitch, the D class plus one 16-byte vector, so that the 8 rows a
    warp's 16-byte fragment read touches start 4 banks apart (at the class's pitch, a multiple of
    128 bytes, all 8 would start on the same bank)."""
    return p["cs"] + tcd_span(p["dtype"])


def stx_type(p):
    return f"!cake.smem<{tcd_points_per_block(p)}x{stx_pitch(p)}x{DTYPES[p['dtype']][0]}>"


def tcd_points_per_block(p):
    return (TCD_WARPS if p.get("ws", 1) == p.get("kw", 1) == 1 else 1) * 16 * p["r"]


def tcd_smem_bytes(p):
    """Shared memory of a resident-centroid (`cs`) variant: the centroids' copy and `stx`'s x tile."""
    el = DTYPES[p["dtype"]][1]
    return cs_rows(p) * p["cs"] * el + (tcd_points_per_block(p) * stx_pitch(p) * el if p.get("stx") else 0)


def x_tile_buffer(w, p):
    """`stx`: %xsm, the block's copy of one point tile, and stage_rows' constants (prefix t)."""
    copy_buffer(w, "t", "%xsm", stx_type(p), tcd_points_per_block(p), stx_pitch(p), DTYPES[p["dtype"]][0], "%ndim")


def stx_fits(p):
    """Whether both copies of `pg` blocks fit the SM's shared memory (1 KB reserved a block)."""
    return p["pg"] * (tcd_smem_bytes(p) + 1024) <= TCD_STX_SM_BYTES


def merge_k_split(w, rows, kw):
    """Split K: each warp's quad leaders put their rows' (score, index) in shared memory; after a
    barrier every warp folds the kw pairs of its rows onto its own (the smaller score, on a tie
    the smaller index: the warps' centroids interleave), the same result in each; warp 0 stores.
    Returns {row: merged index}. Needs the constants %c0 .. %c<max(rows, kw) - 1>."""
    n, merged = len(rows), {}
    fs, ks = f"!cake.smem<{kw}x{n}x8xf32>", f"!cake.smem<{kw}x{n}x8xi32>"
    w(f"  %kms = cake.alloc_smem : {fs}")
    w(f"  %kmk = cake.alloc_smem : {ks}")
    w("  %kq0 = arith.cmpi eq, %q, %c0 : index")
    w("  scf.if %kq0 {")
    for x, (i, h) in enumerate(rows):
        w(f"    cake.store %rv{i}_{h}, %kms[%wp, %c{x}, %g] : f32, {fs}")
        w(f"    cake.store %ri{i}_{h}, %kmk[%wp, %c{x}, %g] : i32, {ks}")
    w("  }")
    w("  cake.barrier")
    for x, (i, h) in enumerate(rows):
        best = (f"%rv{i}_{h}", f"%ri{i}_{h}")
        for u in range(1, kw):
            t = f"k{x}_{u}"
            w(f"  %kv{t} = cake.load %kms[%c{u}, %c{x}, %g] : {fs} -> f32")
            w(f"  %kk{t} = cake.load %kmk[%c{u}, %c{x}, %g] : {ks} -> i32")
            best = _argmin_step(w, "  ", t, f"%kv{t}", f"%kk{t}", best, ties_by_index=True)
        merged[i, h] = best[1]
    return merged


def tcd_split_fits(r_tiles, kn, ws):
    """Whether the ws warps' partial accumulators (32 lanes x 4 f32 per tile) fit static smem."""
    return ws * r_tiles * kn * 32 * 4 * 4 <= TCD_STATIC_SMEM


def tcd_lane_columns(p):
    """Columns a lane reads per row and step: 16 bytes, or half of that with `sub1`."""
    return tcd_span(p["dtype"]) // (2 if p.get("sub1") else 1)


def tcd_domain(p):
    """Where a configuration is meant to be fast: x read at most TCD_MAX_PASSES times (one pass per
    kn tiles of 8 centroids); split D only where each of its warps gets a step of D. Measured: a
    kn = 2 kernel routed at K = 116 by neighbours of smaller K ran 14x slower than the best (8
    passes over a wide x)."""
    kw_domain = [f"B * N <= {TCD_KSPLIT_POINTS}", f"K >= {TCD_KSPLIT_MIN_K}"]
    if p.get("cs"):            # the centroids resident in shared memory: K and D of the copy
        return [f"K <= {cs_rows(p)}", f"D <= {p['cs']}"]
    if p.get("hx"):            # x in registers across the passes: any K, one step of D
        return [f"D <= {4 * tcd_lane_columns(p)}"] + (kw_domain if p.get("kw", 1) > 1 else [])
    if p.get("kw", 1) > 1:     # split K: any K from TCD_KSPLIT_MIN_K, few points
        return kw_domain
    out = [f"K <= {min(TCD_MAX_K, TCD_MAX_PASSES * 8 * p['kn'])}"]
    if p.get("ws", 1) > 1:     # split D: every warp at least one step of D
        out.append(f"D >= {p['ws'] * 4 * tcd_span(p['dtype'])}")
    return out


def tcd_table_only(p):
    """Served only at the table points that measured them (route.py): the resident-centroid
    (cs) kernels, tuned only where their tile fits tightly, and the pipelined (pf) ones, slower
    than their plain tile overall (base/pf 0.874 over 270 pairs, bench/results/2026-12-05-
    library-kmeans-16) and faster only at a few few-point wide-D shapes. Leave-one-out over the
    merged table (route_cv.py, session 37): 1.120 with pf table-only; as ordinary configurations
    neighbours would route 166 of 376 shapes to a pf kernel their own point never measured."""
    return bool(p.get("cs") or p.get("pf"))


def tcd_span(dtype):
    """Columns a lane reads per row and step: 16 bytes."""
    return 16 // DTYPES[dtype][1]


def tcd_variants(dtypes=DTYPES, flat=False, staged_x=False):
    """The plan's tcd configurations. `flat`: also the `fl` ones (an experiment: slower than the
    v1/v2 loads they replace on 184 of 191 tuned shapes, bench/results/2026-12-04-library-kmeans-11).
    `staged_x`: also the resident-centroid ones with x staged (`stx`, an experiment)."""
    out = [{"dtype": d, "r": r, "kn": kn, "v": v} for d in dtypes for r, kn in TCD_TILES
           for v in (1, 2, 4, 8) if v <= tcd_span(d)]
    out += [{"dtype": d, "r": r, "kn": kn, "v": v, "ws": ws} for d in dtypes for r, kn in TCD_SPLIT_TILES
            for v in (1, 2, 4, 8) if v <= tcd_span(d) for ws in TCD_SPLITS if tcd_split_fits(r, kn, ws)]
    out += [dict(p, pf=1) for p in out]
    if flat:
        out += [dict(p, fl=1) for p in out if p["v"] == tcd_span(p["dtype"]) and (p["r"], p["kn"]) not in TCD_FLAT_SPILLS
                and "pf" not in p]
    out += [dict(p, hx=1) for p in out if "ws" not in p and "fl" not in p and "pf" not in p
            and p["kn"] in TCD_HOIST_KN]
    out += [dict(p, sub1=1) for p in out if p.get("hx") and 2 * p["v"] <= tcd_span(p["dtype"])]
    out += tcd_resident_variants(dtypes, staged_x=staged_x)
    out += [{"dtype": d, "r": r, "kn": kn, "v": v, "kw": kw, **hx} for d in dtypes for r, kn in TCD_KSPLIT_TILES
            for v in sorted({1, tcd_span(d)}) for kw in TCD_KSPLITS for hx in ({}, {"hx": 1})]
    return out + [dict(p, tf=1) for p in out if p["dtype"] == "float32"]


def tcd_resident_fits(dtype, rows, cs):
    """Whether `rows` centroid rows of `cs` columns fit static shared memory."""
    return rows * cs * DTYPES[dtype][1] <= TCD_STATIC_SMEM


def tcd_resident_variants(dtypes, passes=False, staged_x=False):
    """The plan's `cs` configurations: each kn and D class that fits, 2-4 persistent blocks per
    SM, x read an element at a time (v = 1: odd D). Measured (bench/results/2026-12-05-library-
    kmeans-15, 166 table points, 1,600 pairs): they won at 5 points, all of odd D, where the
    other tcd kernels read c an element at a time too; at even D (v 2, 8) and with several
    passes (ck) never. Table-only (registry.py): served only at the table points that measured
    them. Since session 36 also two row tiles (TCD_CS_ROW_TILES) and, for one, x prefetched a
    step ahead (pf). `passes`: the several-pass (ck, hx) ones too (not in the plan). `staged_x`:
    the one-pass ones with x staged through shared memory too (`stx`, where both copies fit the
    SM at pg blocks; not in the plan until measured: build.py --staged-x)."""
    out = [{"dtype": d, "r": r, "kn": kn, "v": 1, "cs": cs, "pg": pg} for d in dtypes
           for r, most in TCD_CS_ROW_TILES.items() for kn in TCD_CS_KN if kn <= most
           for cs in TCD_CS_CLASSES if tcd_resident_fits(d, 8 * kn, cs)
           for pg in TCD_CS_BLOCKS_PER_SM]
    staged = [dict(p, stx=1) for p in out] if staged_x else []
    out += [dict(p, pf=1) for p in out if p["r"] == 1]
    out += [p for p in staged if stx_fits(p)]
    if passes:
        out += [{"dtype": d, "r": 1, "kn": kn, "v": v, "cs": 4 * tcd_span(d), "ck": ck, "hx": 1, "pg": pg}
                for d in dtypes for kn in TCD_CS_HX_KN for ck in TCD_CS_HX_ROWS
                for v in sorted({1, 2, tcd_span(d)}) for pg in TCD_CS_BLOCKS_PER_SM]
    return out


def tcd_suffix(p, config=False):
    """`_s<ws>` for split D; `_kw<kw>` for split K; `_tf` for fp32 as one tf32 product (the
    default is 3xTF32); `_fl` for x and c read as flat arrays (16-byte loads at any D); `_hx` for x held in registers
    across the passes (D of one step); `_sub1` for a step of one mma k-step; `_pf` for each
    step's loads issued one step ahead; `_stx` for x staged through shared memory;
    `_cs<class>_k<ck>_g<pg>` for the resident centroids. The configuration's name leaves out the D class (`_cs`): like wgmma's column chunks, the classes
    of one configuration are one choice measured at any D (the router takes the smallest class
    that covers a shape's D: tcd_widest)."""
    resident = ("_cs" + ("" if config else str(p["cs"])) + _count_suffix(p, "ck", "k") + f"_g{p['pg']}"
                if p.get("cs") else "")
    return _count_suffix(p, "ws", "s") + _count_suffix(p, "kw", "kw") + ("_tf" if p.get("tf") else "") + \
        ("_fl" if p.get("fl") else "") + ("_hx" if p.get("hx") else "") + ("_sub1" if p.get("sub1") else "") + \
        ("_pf" if p.get("pf") else "") + ("_stx" if p.get("stx") else "") + resident


def tcd_widest(p):
    """The widest D a variant serves: its D class for the resident-centroid ones, else any."""
    return p.get("cs") or None


def tcd_name(p):
    return "km_{t}_tcd_r{r}_n{kn}_v{v}".format(t=DTYPES[p["dtype"]][0], **p) + tcd_suffix(p)


def generate_tcd(p):
    ty = DTYPES[p["dtype"]][0]
    r_tiles, kn, v, ws, tf, fl = p["r"], p["kn"], p["v"], p.get("ws", 1), p.get("tf", 0), p.get("fl", 0)
    hx, cs, pg, ck = p.get("hx", 0), p.get("cs", 0), p.get("pg", 0), p.get("ck", 0)
    pf, kw, sub1, stx = p.get("pf", 0), p.get("kw", 1), p.get("sub1", 0), p.get("stx", 0)
    span = tcd_lane_columns(p)
    # `cs`: 1 or 2 row tiles (TCD_CS_ROW_TILES: the most kn of each), no split, D class in whole
    # steps, any kn up to TCD_CS_MAX_KN (one pass over K) within static shared memory, always
    # persistent (`pg` blocks per SM); `pg` only with it. The others take a listed tile.
    # Several passes (`ck` rows, a multiple of 8 kn) only with x in registers (`hx`, one step of D:
    # x would be re-read per pass otherwise).
    cs_legal = (ws == 1 and not fl and cs % (4 * span) == 0
                and 1 <= kn <= TCD_CS_ROW_TILES.get(r_tiles, 0) and tcd_resident_fits(p["dtype"], cs_rows(p), cs)
                and pg in TCD_CS_BLOCKS_PER_SM and bool(hx) == bool(ck)
                and (not ck or (ck % (8 * kn) == 0 and ck > 8 * kn and cs == 4 * span)))
    # `stx`: x staged like the centroids (v = 1: the copy's loads are element loads; one pass, x
    # read from the copy in the D loop), both copies within the SM's shared memory at pg blocks.
    stx_legal = stx == 1 and cs and v == 1 and not (pf or hx or ck) and stx_fits(p)
    if (pg and not cs) or (ck and not cs) or (cs and not cs_legal) or (stx and not stx_legal) or "tt" in p:
        raise ValueError("illegal tcd variant %s" % p)
    tile_listed = cs or (r_tiles, kn) in (TCD_TILES if ws == 1 else TCD_SPLIT_TILES)
    if not tile_listed or v not in (1, 2, 4, 8) \
            or v > span or (ws != 1 and (ws not in TCD_SPLITS or not tcd_split_fits(r_tiles, kn, ws))) \
            or (tf and ty != "f32") or (fl and v != span) or (hx and (ws != 1 or fl)) \
            or (pf and (pf != 1 or hx or fl or ck)) \
            or (sub1 and (sub1 != 1 or not hx or cs or fl)) \
            or (kw != 1 and (kw not in TCD_KSPLITS or (r_tiles, kn) not in TCD_KSPLIT_TILES
                             or ws != 1 or cs or pf or fl)):
        raise ValueError("illegal tcd variant %s" % p)
    split3 = ty == "f32" and not tf             # the 3xTF32 split; tf: the values go in as they are
    subs = 1 if sub1 else 2                    # mma k-steps per step of D
    per, step = span // subs, 4 * span         # columns per sub-step and lane; columns per step
    warps = ws if ws > 1 else kw if kw > 1 else TCD_WARPS
    ppb = tcd_points_per_block(p)
    if fl:
        xt, ct = f"!cake.tensor<[BND], {ty}>", f"!cake.tensor<[BKD], {ty}>"
    else:
        xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    vt = ty if v == 1 else f"vector<{v}x{ty}>"
    at, bt, pt, acct = (f"vector<{2 * per}x{ty}>", f"vector<{per}x{ty}>", f"vector<{per}x{ty}>",
                        "vector<4xf32>")
    loads = span // v                           # per row and step
    L = []
    w = L.append
    _unstaged_head(w, p, tcd_name(p), 32 * warps, ppb, flat=fl, blocks=SM_COUNT * pg if cs else None)
    dstart = "%c0" if ws == 1 else "%dstart"
    consts = {0, 1, 4, span, step, v, 8 * kn, 8 * kn * kw, 16 * r_tiles, ppb, ws * step} | \
        {8 * i for i in range(2 * r_tiles)} | {8 * n for n in range(kn)} | {j * v for j in range(loads)} | \
        (set(range(max(r_tiles * kn, ws))) if ws > 1 else set()) | \
        (set(range(max(2 * r_tiles, kw))) if kw > 1 else set())
    for c in sorted(consts):
        w(f"  %c{c} = arith.constant {c} : index")
    w("  %inf = arith.constant 0x7F800000 : f32")
    w("  %mtwo = arith.constant -2.0 : f32")
    w(f"  %zacc = arith.constant dense<0.0> : {acct}")
    w(f"  %zx = arith.constant {'0.0 : ' + ty if v == 1 else f'dense<0.0> : {vt}'}")
    if fl:
        flat_constants(w, span, consts)
    if split3:
        w(f"  %hia = arith.constant dense<{TF32_HI}> : vector<{2 * per}xi32>")
        w(f"  %hib = arith.constant dense<{TF32_HI}> : vector<{per}xi32>")
    _sizes_and_ids(w, batch_from_grid=not cs)
    w("  %g = arith.divui %lane, %c4 : index")
    w("  %q = arith.remui %lane, %c4 : index")
    w(f"  %qs = arith.muli %q, %c{span} : index")
    w("  %q2 = arith.addi %q, %q : index")
    if cs:                                   # loops over batch %b and point tile %tile
        centroid_buffer(w, ty, cs_rows(p), cs)
        if stx:
            x_tile_buffer(w, p)
        persistent_tiles(w, ppb, SM_COUNT * pg)
        stage_centroids(w, ty, cs_rows(p), cs)
        w("  scf.for %item = %ilo to %ihi step %c1 {")
        w("  %tile = arith.remui %item, %ntiles : index")
        w(f"  %pb = arith.muli %tile, %c{ppb} : index")
    else:
        w(f"  %pb = arith.muli %bx, %c{ppb} : index")
    if kw > 1:                                # every warp the block's rows, every kw-th centroid tile
        w("  %p0 = arith.addi %pb, %c0 : index")
        w(f"  %kfirst = arith.muli %wp, %c{8 * kn} : index")
    elif ws == 1:                             # each warp its own rows
        w(f"  %pw = arith.muli %wp, %c{16 * r_tiles} : index")
        w("  %p0 = arith.addi %pb, %pw : index")
    else:                                     # every warp the block's rows, every ws-th step of D
        w("  %p0 = arith.addi %pb, %c0 : index")
        w(f"  %dstart = arith.muli %wp, %c{step} : index")
        w(f"  %part = cake.alloc_smem : !cake.smem<{ws}x{r_tiles * kn}x32x4xf32>")
    w("  %pg = arith.addi %p0, %g : index")
    _clamp_bounds(w, v)
    rows = []                                # (tile, half): the lane's rows g and g + 8
    for i in range(r_tiles):
        for h in range(2):
            w(f"  %row{i}_{h} = arith.addi %pg, %c{16 * i + 8 * h} : index")
            w(f"  %rowc{i}_{h} = arith.minui %row{i}_{h}, %nlast : index")
            rows.append((i, h))
    if stx:                                   # the tile's x into %xsm; the lane's rows there
        stage_rows(w, "t", f"%x[%b, {{row}}, {{col}}] : {xt}", "%pb", "%ndim", "%xsm", stx_type(p), ty)
        w("  %pwg = arith.addi %pw, %g : index")
        for i, h in rows:
            w(f"  %xl{i}_{h} = arith.addi %pwg, %c{16 * i + 8 * h} : index")

    def step_columns(ind, first, sfx=""):
        """%cc<j> and %in<j>: the lane's v-wide column j of a step starting at column `first`,
        clamped to the last one (the loads clamp), and whether it lies inside D. `sfx` names
        another step's values (pf: the prologue's and the next step's)."""
        for j in range(loads):
            col = first if j == 0 else f"{first}{j}"
            if j:
                w(f"{ind}{col} = arith.addi {first}, %c{j * v} : index")
            w(f"{ind}%cc{j}{sfx} = arith.minui {col}, %dlast : index")
            w(f"{ind}%in{j}{sfx} = arith.cmpi ult, {col}, %ddim : index")

    def x_loads(ind, sfx=""):
        """The lane's x columns of the step (%cc<j>, %in<j>): past D read as zero. `stx`: one
        16-byte read of the staged row at the step's column %dq (zeros past N and D there)."""
        if stx:
            for i, h in rows:
                w(f"{ind}%x{i}_{h}_0 = cake.load %xsm[%xl{i}_{h}, %dq] : {stx_type(p)} -> vector<{span}x{ty}>")
            return
        for i, h in rows:
            for j in range(loads):
                w(f"{ind}%xr{i}_{h}_{j}{sfx} = cake.load %x[%b, %rowc{i}_{h}, %cc{j}{sfx}] : {xt} -> {vt}")
                w(f"{ind}%x{i}_{h}_{j}{sfx} = arith.select %in{j}{sfx}, %xr{i}_{h}_{j}{sfx}, %zx : {vt}")

    def c_loads(ind, sfx=""):
        """The lane's centroid columns of the step, one row per tile of 8 (zeros past D in x
        make their products zero)."""
        for n in range(kn):
            for j in range(loads):
                w(f"{ind}%y{n}_{j}{sfx} = cake.load %c[%b, %kc{n}, %cc{j}{sfx}] : {ct} -> {vt}")

    def step_loads(ind, first, sfx):
        """pf: the loads of the step starting at column `first`, named with `sfx` (c only
        without `cs`: the resident copy is read in its step)."""
        step_columns(ind, first, sfx)
        x_loads(ind, sfx)
        if not cs:
            c_loads(ind, sfx)

    # pf: the step's x and c values are the loop's iteration arguments, loaded one step ahead
    # (the prologue before the D loop, the next step's loads before this step's mma), so that
    # a latency-bound warp has a step of loads in flight while it computes. With `cs` only x's
    # (c is read from shared memory in the step itself).
    carried_loads = [f"%x{i}_{h}_{j}" for i, h in rows for j in range(loads)] + \
        ([] if cs else [f"%y{n}_{j}" for n in range(kn) for j in range(loads)]) if pf else []
    if fl:
        flat_bases(w, span, rows)
    if hx:                                   # the one step of D (d = 0): x before the passes
        step_columns("  ", "%qs")
        x_loads("  ")
    w("  %kbig = arith.index_cast %kdim : index to i32")
    carried = ", ".join(f"%bs{i}_{h} = %inf, %bk{i}_{h} = %kbig" for i, h in rows)
    w(f"  %best:{2 * len(rows)} = scf.for %k0 = {'%kfirst' if kw > 1 else '%c0'} to %kdim step %c{8 * kn * kw} "
      f"iter_args({carried}) -> "
      f"({', '.join(['f32, i32'] * len(rows))}) {{")
    for n in range(kn):
        w(f"    %kr{n} = arith.addi %k0, %c{8 * n} : index")
        w(f"    %kg{n} = arith.addi %kr{n}, %g : index")
        w(f"    %kc{n} = arith.minui %kg{n}, %klast : index")
        if fl:
            flat_row(w, "    ", f"c{n}", "%bk", f"%kc{n}", span)
    def centroid_norms():
        for n in range(kn):
            w(f"    %kk{n}_0 = arith.addi %kr{n}, %q2 : index")
            w(f"    %kk{n}_1 = arith.addi %kk{n}_0, %c1 : index")
            for e in range(2):
                w(f"    %sq{n}_{e} = cake.load %csq[%b, %kk{n}_{e}] masked pad(%inf : f32) : "
                  "!cake.tensor<[B, K], f32> -> f32")
                w(f"    %ki{n}_{e} = arith.index_cast %kk{n}_{e} : index to i32")

    # |c|^2 of the pass's centroids: before the D loop for one row tile (latency-bound kernels:
    # the loads overlap x's and c's, see simt), after it for more (measured, session 12: hoisted,
    # r >= 2 kernels on large shapes ran 1.12x slower, up to 1.46x: the norms stay live across
    # the loop beside the accumulators).
    if r_tiles == 1:
        centroid_norms()
    acc = [(i, n) for i in range(r_tiles) for n in range(kn)]
    inits = ", ".join(f"%a{i}_{n} = %zacc" for i, n in acc)
    if pf:                                   # the first step's loads
        w(f"    %dqp = arith.addi {dstart}, %qs : index")
        step_loads("    ", "%dqp", "p")
        inits += "".join(f", {name} = {name}p" for name in carried_loads)
    results = [acct] * len(acc) + [vt] * len(carried_loads)
    w(f"    %acc:{len(results)} = scf.for %d = {dstart} to %ddim step %c{ws * step} iter_args({inits}) -> "
      f"({', '.join(results)}) {{")
    w("      %dq = arith.addi %d, %qs : index")
    if pf:                                   # the next step's loads (clamped past D: zeros)
        w(f"      %dqn = arith.addi %dq, %c{ws * step} : index")
        step_loads("      ", "%dqn", "n")
    if fl:
        flat_step_loads(w, p, rows, kn, xt, ct, vt)
    elif not pf or cs:                       # every load of the step first (hx, pf: x is loaded)
        if not hx and not pf:
            if not stx:
                step_columns("      ", "%dq")
            x_loads("      ")
        if cs:                               # one 16-byte read of the resident row (zeros past K, D)
            for n in range(kn):
                w(f"      %y{n}_0 = cake.load %csm[%kg{n}, %dq] : {csm_type(ty, cs_rows(p), cs)} -> vector<{span}x{ty}>")
        else:
            c_loads("      ")

    def part(prefix, s, tag, width=v):
        """Columns per*s .. per*s + per - 1 of the lane's span of one row, as a vector<per>
        (the row read `width` columns a load)."""
        if width == span:
            wt = f"vector<{span}x{ty}>"
            idx = ", ".join(str(per * s + e) for e in range(per))
            w(f"      {tag} = vector.shuffle {prefix}_0, {prefix}_0 [{idx}] : {wt}, {wt}")
        elif v == per:
            return f"{prefix}_{s}"
        elif v == 1:
            elements = ", ".join(f"{prefix}_{per * s + e}" for e in range(per))
            w(f"      {tag} = vector.from_elements {elements} : {pt}")
        else:                                # two loads of per / 2
            idx = ", ".join(str(e) for e in range(per))
            w(f"      {tag} = vector.shuffle {prefix}_{2 * s}, {prefix}_{2 * s + 1} [{idx}] : {vt}, {vt}")
        return tag

    def split(val, t, mask, tag):
        """3xTF32: (hi, lo) with hi the value's tf32 bits and lo = value - hi."""
        it = t.replace("f32", "i32")
        w(f"      {tag}i = arith.bitcast {val} : {t} to {it}")
        w(f"      {tag}m = arith.andi {tag}i, {mask} : {it}")
        w(f"      {tag}h = arith.bitcast {tag}m : {it} to {t}")
        w(f"      {tag}l = arith.subf {val}, {tag}h : {t}")
        return f"{tag}h", f"{tag}l"

    # A slots, row-major m16n8k16: (g,2q) (g,2q+1) (g+8,2q) (g+8,2q+1) (g,2q+8) (g,2q+9) (g+8,2q+8)
    # (g+8,2q+9); m16n8k8 tf32: (g,q) (g+8,q) (g,q+4) (g+8,q+4). B takes the part as it is.
    order = "0, 2, 1, 3" if ty == "f32" else "0, 1, 4, 5, 2, 3, 6, 7"
    outs = {}
    for s in range(subs):
        frag_b = {n: part(f"%y{n}", s, f"%fb{s}_{n}", span if cs else v) for n in range(kn)}
        if split3:
            frag_b = {n: split(b, bt, "%hib", f"%sb{s}_{n}") for n, b in frag_b.items()}
        for i in range(r_tiles):
            lo = part(f"%x{i}_0", s, f"%lo{s}_{i}", span if stx else v)
            hi = part(f"%x{i}_1", s, f"%hi{s}_{i}", span if stx else v)
            w(f"      %fa{s}_{i} = vector.shuffle {lo}, {hi} [{order}] : {pt}, {pt}")
            fa = split(f"%fa{s}_{i}", at, "%hia", f"%sa{s}_{i}") if split3 else None
            for n in range(kn):
                prev = outs.get((i, n), f"%a{i}_{n}")
                if split3:         # the small products first
                    terms = ((fa[1], frag_b[n][0]), (fa[0], frag_b[n][1]), (fa[0], frag_b[n][0]))
                else:
                    terms = ((f"%fa{s}_{i}", frag_b[n]),)
                for t, (a, b) in enumerate(terms):
                    w(f"      %m{s}_{i}_{n}_{t} = cake.mma_sync {a}, {b}, {prev} : {at}, {bt}, {acct}")
                    prev = f"%m{s}_{i}_{n}_{t}"
                outs[(i, n)] = prev
    yielded = [outs[a] for a in acc] + [name + "n" for name in carried_loads]
    w(f"      scf.yield {', '.join(yielded)} : {', '.join(results)}")
    w("    }")
    sums = [f"%acc#{x}" for x in range(len(acc))]
    if ws > 1:
        # Each warp's partial accumulators to its slice; every warp sums all slices (the same
        # result in every warp, no divergent epilogue); a second barrier before the next pass
        # overwrites the slices.
        pt4 = f"!cake.smem<{ws}x{r_tiles * kn}x32x4xf32>"
        for x in range(len(acc)):
            w(f"    cake.store %acc#{x}, %part[%wp, %c{x}, %lane, %c0] : {acct}, {pt4}")
        w("    cake.barrier")
        for x in range(len(acc)):
            prev = None
            for u in range(ws):
                w(f"    %pp{x}_{u} = cake.load %part[%c{u}, %c{x}, %lane, %c0] : {pt4} -> {acct}")
                if prev:
                    w(f"    %ps{x}_{u} = arith.addf {prev}, %pp{x}_{u} : {acct}")
                    prev = f"%ps{x}_{u}"
                else:
                    prev = f"%pp{x}_{u}"
            sums[x] = prev
        w("    cake.barrier")
    if r_tiles != 1:
        centroid_norms()
    # Accumulator element e of tile (i, n): row g + 8 (e div 2), centroid k0 + 8n + 2q + (e mod 2).
    res = []
    for i, h in rows:
        ps, pk = f"%bs{i}_{h}", f"%bk{i}_{h}"
        for n in range(kn):
            for e in range(2):
                t = f"{i}_{h}_{n}_{e}"
                w(f"    %dot{t} = vector.extract {sums[acc.index((i, n))]}[{2 * h + e}] : f32 from {acct}")
                w(f"    %s{t} = math.fma %mtwo, %dot{t}, %sq{n}_{e} : f32")
                ps, pk = _argmin_step(w, "    ", t, f"%s{t}", f"%ki{n}_{e}", (ps, pk))
        res += [ps, pk]
    w(f"    scf.yield {', '.join(res)} : {', '.join(['f32, i32'] * len(rows))}")
    w("  }")
    # The quad's four lanes hold the row's candidates for different centroids: one argmin across
    # them (ties to the smaller index), then lane q = 0 stores.
    if ws > 1 or kw > 1:                     # every warp holds the result (ws) / warp 0 merged it (kw)
        w("  %q0 = arith.cmpi eq, %q, %c0 : index")
        w("  %w0 = arith.cmpi eq, %wp, %c0 : index")
        w("  %lead = arith.andi %q0, %w0 : i1")
    else:
        w("  %lead = arith.cmpi eq, %q, %c0 : index")
    for x, (i, h) in enumerate(rows):
        w(f"  %rv{i}_{h}, %ri{i}_{h} = cake.warp_arg_reduce argmin %best#{2 * x}, %best#{2 * x + 1} "
          "{lanes = 4 : i64} : f32, i32")
    chosen = merge_k_split(w, rows, kw) if kw > 1 else {(i, h): f"%ri{i}_{h}" for i, h in rows}
    w("  scf.if %lead {")
    for i, h in rows:
        w(f"    cake.store {chosen[i, h]}, %idx[%b, %row{i}_{h}] masked : i32, !cake.tensor<[B, N], i32>")
    w("  }")
    if cs:
        w("  }")
        w("  }")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"

