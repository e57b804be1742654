#!/usr/bin/env python3
"""Session 34, call 5: compile the tcd cs variants of six shapes into .device/klib and add them to
its library.json (the table unchanged); writes the call's configuration list. Run from the
repository root after build.py has built .device/klib (run.sh)."""
import json, os, sys
sys.path.insert(0, 'libraries/kmeans')
import build, family
shapes = [("bfloat16", 2, 120214, 145, 71, 1), ("bfloat16", 2, 120214, 152, 71, 8),
          ("float16", 7, 54410, 218, 31, 2), ("bfloat16", 6, 22749, 71, 37, 1),
          ("bfloat16", 5, 116680, 7, 77, 1), ("float16", 7, 156830, 216, 2, 8)]
kdir = '.device/klib/kernels'
lib = json.load(open('.device/klib/library.json'))
have = {v['name'] for v in lib['variants']}
only = []
for dt, B, N, D, K, v in shapes:
    kn = -(-K // 8)
    cs = -(-D // 32) * 32
    cfgs = []
    for tt in (1, 4, 16):
        p = {"dtype": dt, "r": 1, "kn": kn, "v": v, "cs": cs, "tt": tt}
        p2, rc, err = build.compile_one('build/bin', kdir, p)
        if rc:
            print("FAIL", p, err[-800:]); continue
        m = json.load(open(os.path.join(kdir, build.variant_name(p) + ".json")))["kernels"][0]
        d = build.describe(p, m)
        if d['name'] not in have:
            lib['variants'].append(d); have.add(d['name'])
        cfgs.append(d['config'])
        log = open(os.path.join(kdir, build.variant_name(p) + ".ptxas.log")).read()
        print(d['name'], d['config'], [l.strip() for l in log.splitlines() if 'registers' in l][:1])
    only.append({"B": B, "N": N, "D": D, "K": K, "dtype": dt, "heldout": False, "configs": cfgs})
json.dump(lib, open('.device/klib/library.json', 'w'))
json.dump(only, open('/tmp/cs_only.json', 'w'), indent=0)   # then the routed and table-best configurations were added -> cs-only.json
