"""A CAKE kernel library: cubins, their manifests and a routing table, launched through libcuda.

    import cake_library
    idx = cake_library.kmeans_assign(x, c)             # torch tensors on a CUDA device
    cake_library.route(B=3, N=75599, D=96, K=999, dtype="float16")   # CPU only: which kernel
    out, state = cake_library.kda_fwd(q, k, v, g, beta, scale, A_log, dt_bias, -5.0)  # a KDA package

The library folder is the `library` folder beside this file (an exported package) or the one named
by CAKE_LIBRARY_DIR. Needs neither LLVM/MLIR nor the CAKE build tree.
"""
import os

from .route import NoKernel, Router  # noqa: F401

_loaded = {}                   # kind -> the library of folder(), loaded once


def folder():
    return os.environ.get("CAKE_LIBRARY_DIR") or os.path.join(os.path.dirname(__file__), "library")


def _load(kind, path):
    if kind == "kda":
        from .kda import KDALibrary as library
    else:
        from .kmeans import KMeansLibrary as library
    if path is None and kind in _loaded:
        return _loaded[kind]
    where = folder() if path is None else path
    try:
        lib = library(where)
    except (OSError, ValueError) as e:   # no library.json, malformed JSON, a bad definition
        raise ValueError(f"{where}: not a usable {kind} library: {e}") from None
    if path is None:
        _loaded[kind] = lib
    return lib


def load(path=None):
    """The KMeans library of `path` (default: folder()), loaded once."""
    return _load("kmeans", path)


def load_kda(path=None):
    """The KDA library of `path` (default: folder()), loaded once."""
    return _load("kda", path)


def kda_fwd(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound, initial_state=None,
            output_final_state=False, cu_seqlens=None, out=None):
    """Kimi Delta Attention forward (FlashKDA's interface): (out, final state or None)."""
    return load_kda().fwd(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound,
                          initial_state=initial_state, output_final_state=output_final_state,
                          cu_seqlens=cu_seqlens, out=out)


def kmeans_assign(x, c, c_sq=None, out=None):
    return load().assign(x, c, c_sq=c_sq, out=out)


def route(B, N, D, K, dtype):
    return load().route(B, N, D, K, dtype)


def kmeans_update(x, idx, K):
    """(sums, counts) of the points assigned to each of K centroids."""
    return load().update(x, idx, K)


def lloyd_step(x, c):
    """One KMeans iteration: (new centroids, assignments)."""
    return load().lloyd_step(x, c)
