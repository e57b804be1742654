"""Hand experiment: in the full-tile branch, each row slot's running argmin (16 dependent
compare-selects per tile) becomes two interleaved chains (even / odd steps) merged at the end of
the tile with ties to the smaller index: the same result, half the dependency depth."""
import re, sys
src = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(src) if "scf.if %137" in l)
end = next(i for i in range(start, len(src)) if src[i].strip().startswith("} else {"))
yl = end - 1
heads = {"%arg5": 0, "%arg7": 1}          # the value states of slot 0 and 1 (indices %arg6, %arg8)
idx_of = {"%arg5": "%arg6", "%arg7": "%arg8"}
cur = {0: ["%arg5", "%arg6"], 1: ["%arg5", "%arg6"]}
chain = {}                                # value name -> (slot, which)
for v, s in heads.items():
    chain[v] = (s, 0)
state = {(0, 0): ("%arg5", "%arg6"), (1, 0): ("%arg7", "%arg8"),
         (0, 1): ("%binf", "%bmax"), (1, 1): ("%binf", "%bmax")}
step = {0: 0, 1: 0}
out = list(src)
i = start
while i < yl:
    m = re.match(r"(\s*)(%\w+) = arith.cmpf olt, (%\w+), (%\w+) : f32", out[i])
    if m:
        ind, p, d, prev = m.groups()
        s, _ = chain[prev]
        which = step[s] % 2
        step[s] += 1
        pv, pi = state[(s, which)]
        out[i] = f"{ind}{p} = arith.cmpf olt, {d}, {pv} : f32"
        mv = re.match(r"(\s*)(%\w+) = arith.select %\w+, (%\w+), %\w+ : f32", out[i + 1])
        mi = re.match(r"(\s*)(%\w+) = arith.select %\w+, (%\w+), %\w+ : i32", out[i + 2])
        out[i + 1] = f"{ind}{mv.group(2)} = arith.select {p}, {mv.group(3)}, {pv} : f32"
        out[i + 2] = f"{ind}{mi.group(2)} = arith.select {p}, {mi.group(3)}, {pi} : i32"
        state[(s, which)] = (mv.group(2), mi.group(2))
        chain[mv.group(2)] = (s, which)
        i += 3
        continue
    i += 1
ind = "        "
merge = [f"{ind}%binf = arith.constant 0x7F800000 : f32", f"{ind}%bmax = arith.constant 2147483647 : i32"]
res = []
for s in (0, 1):
    (av, ai), (bv, bi) = state[(s, 0)], state[(s, 1)]
    merge += [f"{ind}%lt{s} = arith.cmpf olt, {bv}, {av} : f32",
              f"{ind}%eq{s} = arith.cmpf oeq, {bv}, {av} : f32",
              f"{ind}%sm{s} = arith.cmpi slt, {bi}, {ai} : i32",
              f"{ind}%tie{s} = arith.andi %eq{s}, %sm{s} : i1",
              f"{ind}%tk{s} = arith.ori %lt{s}, %tie{s} : i1",
              f"{ind}%mv{s} = arith.select %tk{s}, {bv}, {av} : f32",
              f"{ind}%mi{s} = arith.select %tk{s}, {bi}, {ai} : i32"]
    res += [f"%mv{s}", f"%mi{s}"]
out[yl] = f"{ind}scf.yield {res[0]}, {res[1]}, {res[2]}, {res[3]} : f32, i32, f32, i32"
body = out[start + 1:yl]
out = out[:start + 1] + merge[:2] + body + merge[2:] + out[yl:]
open(sys.argv[2], "w").write("\n".join(out))
print("steps", step)
