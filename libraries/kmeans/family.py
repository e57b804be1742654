"""The KMeans assignment kernel families: CAKE IR generated from a handful of parameters.

    idx[b, n] = argmin_k ( |c_bk|^2 - 2 x_bn . c_bk )        (csq = |c|^2, an input)

The code lives in the package families/ beside this file, one module per family; this module
re-exports their names, so `import family` (with libraries/kmeans on sys.path) and `family.X` serve
build.py, the tests and the bench scripts as before:

    common.py    the dtypes, the sm_90 limits, the helpers of the kernels that read the user's
                 tensors as they are (simt, direct, lanes, tcd, update)
    tma.py       the TMA + wgmma kernel skeleton shared by wgmma and splitd
    wgmma.py     `wgmma`: TMA + wgmma per D class of column chunks (with what the host must give)
    splitd.py    `splitd`: TMA + wgmma with D streamed in groups of chunks (any D)
    cpw.py       `cpw`: cp.async + wgmma straight from the user's tensors (no staging)
    simt.py      `simt`: one warp (or sk warps, split K) per point, any D and dtype
    direct.py    `direct`: one thread per point, D classes, no staging
    lanes.py     `lanes`: a group of lanes per point, small K, no staging
    tcd.py       `tcd`: mma.sync fed straight from the user's tensors, no staging
    mma.py       `mma`: the simt kernel's seed for the tensorize tactic
    update.py    `update`: the centroid sums and counts of a Lloyd iteration (plain, privatized)
    centroids.py `centroids`: the new centroids from the sums and counts, in one launch
    pad.py       `pad`: the staging kernel
    finish.py    `finish`: idx from the split-K kernels' merged argmins (tma.py's split_k)
    registry.py  `Family`, `FAMILIES` (a new family is one module and one entry there), `family_of`
"""
from families.common import CHUNK_BYTES, DTYPES, SMEM_LIMIT, chunk_width, d_align
from families.cpw import CPW_BK, CPW_BYTES, cpw_legal, cpw_name, cpw_smem_bytes, cpw_variants, generate_cpw
from families.direct import DIRECT_CONFIGS, STAGE_UNROLL, direct_name, direct_variants, generate_direct
from families.lanes import (LANES_MAX_K, LANES_WARPS, generate_lanes, lanes_configs, lanes_name,
                            lanes_suffix, lanes_unroll, lanes_variants)
from families.mma import MMA_DP, generate_mma_seed, mma_name, mma_tactic
from families.centroids import CENTROIDS_WARPS, centroids_name, generate_centroids
from families.csq import CSQ_LANES, CSQ_MAX_D, csq_name, generate_csq
from families.finish import FINISH_BLOCK, finish_name, generate_finish
from families.pad import PAD_BLOCK, generate_pad, pad_name
from families.registry import FAMILIES, Family, family_of
from families.simt import SIMT_PPB, generate_simt, simt_name, simt_variants
from families.splitd import generate_splitd, splitd_legal, splitd_name, splitd_smem_bytes
from families.tcd import (TCD_MAX_K, TCD_MAX_PASSES, TCD_SPLIT_TILES, TCD_SPLITS, TCD_TILES, TCD_WARPS,
                          TF32_HI, generate_tcd, tcd_domain, tcd_name, tcd_span, tcd_suffix, tcd_variants)
from families.tma import BK, SPLIT_K_MAX_POINT_TILES, csq_box, split_k
from families.update import (UPDATE_CHUNKS, UPDATE_PPB, UPDATE_SMEM_COUNTS, UPDATE_SMEM_SUMS,
                             generate_update, generate_update_private, update_name)
from families.wgmma import generate, legal, max_d, name, smem_bytes, steps_per_chunk

__all__ = [
    "CHUNK_BYTES", "DTYPES", "SMEM_LIMIT", "chunk_width", "d_align",
    "CPW_BK", "CPW_BYTES", "cpw_legal", "cpw_name", "cpw_smem_bytes", "cpw_variants", "generate_cpw",
    "DIRECT_CONFIGS", "STAGE_UNROLL", "direct_name", "direct_variants", "generate_direct",
    "LANES_MAX_K", "LANES_WARPS", "generate_lanes", "lanes_configs", "lanes_name", "lanes_suffix",
    "lanes_unroll", "lanes_variants",
    "MMA_DP", "generate_mma_seed", "mma_name", "mma_tactic",
    "PAD_BLOCK", "generate_pad", "pad_name",
    "CSQ_LANES", "CSQ_MAX_D", "csq_name", "generate_csq",
    "FINISH_BLOCK", "finish_name", "generate_finish",
    "CENTROIDS_WARPS", "centroids_name", "generate_centroids",
    "FAMILIES", "Family", "family_of",
    "SIMT_PPB", "generate_simt", "simt_name", "simt_variants",
    "generate_splitd", "splitd_legal", "splitd_name", "splitd_smem_bytes",
    "TCD_MAX_K", "TCD_MAX_PASSES", "TCD_SPLIT_TILES", "TCD_SPLITS", "TCD_TILES", "TCD_WARPS",
    "TF32_HI", "generate_tcd", "tcd_domain", "tcd_name", "tcd_span", "tcd_suffix", "tcd_variants",
    "BK", "SPLIT_K_MAX_POINT_TILES", "csq_box", "split_k",
    "UPDATE_CHUNKS", "UPDATE_PPB", "UPDATE_SMEM_COUNTS", "UPDATE_SMEM_SUMS",
    "generate_update", "generate_update_private", "update_name",
    "generate", "legal", "max_d", "name", "smem_bytes", "steps_per_chunk",
]
