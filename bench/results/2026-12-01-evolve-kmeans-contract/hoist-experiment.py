"""Hand experiment: in the fast-path branch of the tensorized kmeans, move the epilogue's ops that do
not depend on the wgmma result or the loop state (index math, csq loads) above the wgmma fence."""
import re, sys
src = open(sys.argv[1]).read().split("\n")
out = []
i = 0
done = False
while i < len(src):
    line = src[i]
    if not done and "cake.wgmma.fence" in line and i > 0 and "scf.if" in src[i - 2] or (not done and "cake.wgmma.fence" in line and "arith.constant dense<0.0" in src[i - 1]):
        # the fast branch: find its wgmma.wait, then the branch end ("} else {")
        fence = i
        j = i
        while "cake.wgmma.wait 0" not in src[j]:
            j += 1
        k = j + 1
        while not src[k].strip().startswith("} else {"):
            k += 1
        chain_last = [l for l in src[fence:j] if "cake.wgmma.regs" in l][-1].split("=")[0].strip()
        dep = {chain_last, "%arg5", "%arg6", "%arg7", "%arg8"}
        hoisted, kept = [], []
        for l in src[j + 1:k]:
            m = re.match(r"\s*(%[\w#:]+)\s*=", l)
            uses = set(re.findall(r"%[\w]+", l.split("=", 1)[1] if m else l))
            if m and not (uses & dep) and "scf.yield" not in l:
                hoisted.append(l)
            else:
                if m:
                    dep.add(m.group(1).split(":")[0])
                kept.append(l)
        out += hoisted + src[fence:j + 1] + kept
        i = k
        done = True
        continue
    out.append(line)
    i += 1
open(sys.argv[2], "w").write("\n".join(out))
print("hoisted", len(hoisted), "kept", len(kept))
