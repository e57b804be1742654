"""The registry: everything build.py, the router and the dispatcher need to know about a family, in one
place (a new family is one generator, in its module beside this one, and one entry here). `staging`
is what the host does before a launch, copied into library.json per variant: "none" (x, c and |c|^2
as the user gave them, at the user's D), "rows" (x and c in rows zero-padded to 16 bytes: D rounded
up to d_align), "rows+csq" (and |c|^2 in rows of pitch KP, 16-byte aligned starts, for TMA).
`domain`: a function of the variant's parameters giving constraints beyond the manifest's, where it
is meant to be fast (the router never extrapolates a kernel past them). `table_only`: whether the
router serves the variant only at the table points that measured it (route.py's table-only
configurations). `generate` None: built from
a seed by a tactic (build.py).

Kernels the router does not route (the centroid update and its end, the staging kernel, the
split-K finish, |c|^2) are `listed`: each has its entry in that list of library.json (`record`),
build.py builds `plan(dtypes)` of them, and `twins` says whether each also gets a 32-bit-index
twin. A new auxiliary kernel is its module, its entry here and its list in route.py's
AUXILIARY_LISTS (the runtime's copy: a package has no registry; a test keeps them equal).
"""
from .cpw import cpw_domain, cpw_name, generate_cpw
from .csq import CSQ_LANES, CSQ_MAX_D, csq_name, generate_csq
from .direct import direct_name, generate_direct
from .lanes import LANES_MAX_K, generate_lanes, lanes_name, lanes_suffix
from .mma import mma_name
from .pad import generate_pad, pad_name
from .simt import generate_simt, simt_domain, simt_name, simt_suffix
from .centroids import centroids_name, generate_centroids
from .finish import finish_name, generate_finish
from .splitd import generate_splitd, splitd_name
from .tcd import generate_tcd, tcd_domain, tcd_name, tcd_suffix, tcd_table_only, tcd_widest
from .update import UPDATE_CHUNKS, UPDATE_PPB, generate_update, update_name
from .tma import split_k_domain, split_k_suffix
from .wgmma import generate, max_d, name, mode_suffix, wgmma_domain, wgmma_table_only


class Family:
    def __init__(self, symbol, generate, config, staging, widest=lambda p: None, domain=lambda p: [],
                 table_only=lambda p: False, listed=None, record=None, plan=None, twins=True):
        self.symbol, self.generate, self.config = symbol, generate, config
        self.staging, self.widest, self.domain = staging, widest, domain
        self.table_only = table_only
        self.listed, self.record, self.plan, self.twins = listed, record, plan, twins


def _entry(p, name, manifest, *keys, **extra):
    """A listed kernel's library.json entry: its name, the parameters `keys` it has, `extra`."""
    return {"name": name, **{k: p[k] for k in keys if k in p}, **extra, "manifest": manifest}


def _grid_letter(p):
    return p["grid"][0]


FAMILIES = {
    "wgmma": Family(name, generate, lambda p: "k{bk}_w{wg}_{g}".format(g=_grid_letter(p), **p) + mode_suffix(p),
                    "rows+csq", max_d, wgmma_domain, table_only=wgmma_table_only),
    "splitd": Family(splitd_name, generate_splitd,
                     lambda p: "sd{g}_k{bk}_w{wg}_{gr}".format(gr=_grid_letter(p), **p) + split_k_suffix(p),
                     "rows+csq", domain=split_k_domain),
    "mma": Family(mma_name, None, lambda p: "mma_r{rows}_t{tile}".format(**p), "rows",
                  lambda p: p["dp"]),
    "simt": Family(simt_name, generate_simt, lambda p: "simt_w{ppb}".format(**p) + simt_suffix(p), "none",
                   domain=simt_domain),
    "direct": Family(direct_name, generate_direct, lambda p: "direct_p{pts}_k{tk}".format(**p), "none",
                     lambda p: p["dmax"]),
    "lanes": Family(lanes_name, generate_lanes,
                    lambda p: "lanes_g{g}_v{v}_k{kt}".format(**p) + lanes_suffix(p), "none",
                    domain=lambda p: [f"K <= {LANES_MAX_K}"]),
    "tcd": Family(tcd_name, generate_tcd,
                  lambda p: "tcd_r{r}_n{kn}_v{v}".format(**p) + tcd_suffix(p, config=True), "none",
                  tcd_widest, tcd_domain, table_only=tcd_table_only),
    "cpw": Family(cpw_name, generate_cpw, lambda p: "cpw{g}_k{bk}_w{wg}_s{st}_v{v}".format(**p), "none",
                  domain=cpw_domain),
    # Not routed: the centroid update and its end (new centroids), the staging kernel, the
    # split-K finish and |c|^2.
    "update": Family(update_name, generate_update, lambda p: "update_w{ppb}".format(**p), None,
                     listed="update_variants", twins=False,
                     record=lambda p, n, m: _entry(p, n, m, "dtype", "ppb", "chunk"),
                     plan=lambda dtypes: [{"update": True, "dtype": d, "ppb": w} for d in dtypes for w in UPDATE_PPB]
                     + [{"update": True, "dtype": d, "ppb": 8, "chunk": c} for d in dtypes for c in UPDATE_CHUNKS]),
    "centroids": Family(centroids_name, generate_centroids, lambda p: "centroids", None,
                        listed="centroids_variants", twins=False,
                        record=lambda p, n, m: _entry(p, n, m, "dtype", "row_block"),
                        plan=lambda dtypes: [{"centroids": True, "dtype": d, **rb} for d in dtypes
                                             for rb in ({}, {"row_block": True})]),
    "pad": Family(pad_name, generate_pad, lambda p: "pad", None, listed="pad_variants",
                  record=lambda p, n, m: _entry(p, n, m, "dtype", index_bits=p.get("index_bits", 64)),
                  plan=lambda dtypes: [{"pad": True, "dtype": d} for d in dtypes]),
    "finish": Family(finish_name, generate_finish, lambda p: "finish", None, listed="finish_variants",
                     twins=False, record=lambda p, n, m: _entry(p, n, m),
                     plan=lambda dtypes: [{"finish": True}]),
    # The dispatcher picks the narrowest `max_d` that covers a call's D; null serves any D.
    "csq": Family(csq_name, generate_csq, lambda p: "csq", None, listed="csq_variants", twins=False,
                  record=lambda p, n, m: _entry(p, n, m, "dtype", "lanes", max_d=CSQ_MAX_D[p["lanes"]]),
                  plan=lambda dtypes: [{"csq": True, "dtype": d, "lanes": g} for d in dtypes for g in CSQ_LANES]),
}


def family_of(p):
    """A variant's family, from the parameters that only it has."""
    for key, fam in (("update", "update"), ("centroids", "centroids"), ("pad", "pad"), ("finish", "finish"), ("csq", "csq"),
                     ("rows", "mma"), ("dmax", "direct"), ("kt", "lanes"), ("kn", "tcd"), ("v", "cpw"), ("ppb", "simt"),
                     ("st", "splitd")):
        if key in p:
            return fam
    return "wgmma"
