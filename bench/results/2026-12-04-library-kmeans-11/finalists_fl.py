#!/usr/bin/env python3
"""Calls 1-2's list (kmeans_bench.py --only): at every tuned shape where a tcd configuration is
within 1.5x of the shape's best (table.json), its three fastest tcd configurations, their `fl`
builds (64- and 32-bit index) and the shape's best. Reads .device/klib/library.json (a build with
build.py --flat-tcd) and libraries/kmeans/table.json as of calls 1-2; writes .device/ws/fl.json.
"""
import json, re
t=json.load(open('libraries/kmeans/table.json'))
lib=json.load(open('.device/klib/library.json'))
byname={v['config']:v for v in lib['variants']}
cfgs=set(v['config'] for v in lib['variants'])
out=[]; n=0
for p in t['points']:
    ms=p['ms']; best=min(ms.values())
    tcd=sorted([(m,c) for c,m in ms.items() if c.startswith('tcd_') and m<=1.5*best])
    if not tcd: continue
    pick=set([min(ms,key=ms.get)])
    bases=[]
    for m,c in tcd:
        base=c[:-4] if c.endswith('_i32') else c
        base=re.sub(r'_v\d', '_v%d' % (8 if p['dtype']!='float32' else 4), base, count=1)
        if base not in bases: bases.append(base)
        pick.add(c)
        if len(bases)>=3: break
    for b in bases:
        # name order: tcd_r_n_v[_s][_tf]_fl
        fl=b+'_fl'
        for c in (fl, fl+'_i32'):
            if c in cfgs: pick.add(c)
    out.append({k:p[k] for k in ('dtype','B','N','D','K')} | {'configs': sorted(pick)})
    n+=len(pick)
print(len(out), n)
json.dump(out, open('.device/ws/fl.json','w'))
