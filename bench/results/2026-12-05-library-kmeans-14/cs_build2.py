#!/usr/bin/env python3
"""Session 34, call 6: the tcd cs variants at tt 6-32 for the two K71 shapes, as cs_build.py."""
import json, os, sys
sys.path.insert(0, 'libraries/kmeans')
import build
kdir = '.device/klib/kernels'
lib = json.load(open('.device/klib/library.json'))
have = {v['name'] for v in lib['variants']}
R = 'bench/results/2026-12-05-library-kmeans-14'
only = []
for dt, B, N, D, K, v in [("bfloat16", 2, 120214, 145, 71, 1), ("bfloat16", 2, 120214, 152, 71, 8)]:
    cfgs = []
    for tt in (6, 10, 12, 16, 32):
        p = {"dtype": dt, "r": 1, "kn": 9, "v": v, "cs": 160, "tt": tt}
        _, rc, err = build.compile_one('build/bin', kdir, p)
        assert rc == 0, err
        d = build.describe(p, json.load(open(os.path.join(kdir, build.variant_name(p) + ".json")))["kernels"][0])
        if d['name'] not in have:
            lib['variants'].append(d); have.add(d['name'])
        cfgs.append(d['config'])
    only.append({"B": B, "N": N, "D": D, "K": K, "dtype": dt, "heldout": False,
                 "configs": cfgs + (["k32_w2_p_i32"] if D == 145 else ["tcd_r2_n8_v8"])})
json.dump(lib, open('.device/klib/library.json', 'w'))
json.dump(only, open(R + '/cs2-only.json', 'w'), indent=0)
json.dump({"shapes": [{k: o[k] for k in ("B", "N", "D", "K", "dtype", "heldout")} for o in only]},
          open(R + '/cs2-grid.json', 'w'), indent=0)
print(only)
