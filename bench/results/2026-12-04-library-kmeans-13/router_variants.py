#!/usr/bin/env python3
"""Session 33's router experiments (CPU only; README "Router variants"): leave-one-out regret over
the table and regret on call 5's 40 probe shapes for re-weighted features and a prior for thinly
measured configurations, then leave-one-out with the probe points added to the table.
Run from the repository root after building .device/klib (run.sh): python3 bench/results/2026-12-04-library-kmeans-13/router_variants.py
Takes ~20 min on 2 cores."""
import json, math, os, sys
ROOT = os.getcwd()
sys.path.insert(0, ROOT + '/libraries/runtime')
import importlib; R = importlib.import_module("cake_library.route")
lib = json.load(open(ROOT + '/.device/klib/library.json'))
lib['table'] = json.load(open(ROOT + '/libraries/kmeans/table.json'))
probe = json.load(open(ROOT + '/bench/results/2026-12-04-library-kmeans-13/tune-probe-0.json'))['points']
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
orig_features = R._features
orig_scores = R.Router._scores

def make_features(wB, wN, wK, wD, bn=False):
    def f(s):
        B, N, K, D = (math.log2(max(s[k], 1)) for k in ("B", "N", "K", "D"))
        if bn: B = B + N
        return [wB * B, wN * N, wK * K, wD * D]
    return f

def evaluate(prior=None, w0=0.0):
    if prior is not None:
        def scores(self, B, N, D, K, dtype, by_config):
            exact, near, score, seen = orig_scores(self, B, N, D, K, dtype, by_config)
            if not exact:
                for c in score:
                    score[c] += w0 * prior; seen[c] += w0
            return exact, near, score, seen
        R.Router._scores = scores
    else:
        R.Router._scores = orig_scores
    pts = lib['table']['points']
    loo, unk = [], 0
    for i, p in enumerate(pts):
        r = R.Router(dict(lib, table=dict(lib['table'], points=pts[:i] + pts[i+1:])))
        c = r.route(p['B'], p['N'], p['D'], p['K'], p['dtype'])['config']
        if c in p['ms']: loo.append(p['ms'][c] / min(p['ms'].values()))
        else: unk += 1
    r = R.Router(lib)
    pr, punk = [], 0
    for p in probe:
        c = r.route(p['B'], p['N'], p['D'], p['K'], p['dtype'])['config']
        if c in p['ms']: pr.append(p['ms'][c] / min(p['ms'].values()))
        else: punk += 1
    return geo(loo), unk, geo(pr), punk

for name, feat, prior, w0 in [
    ('base', orig_features, None, 0),
    ('BN', make_features(1,1,1,1,True), None, 0),
    ('D2', make_features(1,1,1,1.5), None, 0),
    ('K2', make_features(1,1,1.5,1), None, 0),
    ('B.5', make_features(.5,1,1,1), None, 0),
    ('N.7', make_features(1,.7,1,1), None, 0),
    ('prior.2/.1', orig_features, math.log(1.2), 0.1),
    ('prior.3/.1', orig_features, math.log(1.3), 0.1),
    ('prior.5/.05', orig_features, math.log(1.5), 0.05),
]:
    R._features = feat
    print(name, *[round(x, 4) if isinstance(x, float) else x for x in evaluate(prior, w0)], flush=True)


# The shipped router again (the loop leaves its last variant patched in); 'base' above is the
# table-only baseline of this comparison.
R._features, R.Router._scores = orig_features, orig_scores


def loo(extra):
    pts = lib['table']['points']; out = []; unk = 0
    for i, p in enumerate(pts):
        r = R.Router(dict(lib, table=dict(lib['table'], points=pts[:i] + pts[i+1:] + extra)))
        c = r.route(p['B'], p['N'], p['D'], p['K'], p['dtype'])['config']
        if c in p['ms']: out.append(p['ms'][c] / min(p['ms'].values()))
        else: unk += 1
    return geo(out), unk
print('table + probe', loo([{k: p[k] for k in ('dtype','B','N','D','K','ms')} for p in probe]))
