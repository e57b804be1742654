#!/usr/bin/env bash
# Issue #14 checks, CPU only (no GPU): (1) every example, every KDA kernel and every 5th KMeans
# library kernel lower to byte-identical PTX and the examples to identical manifests with the
# tools of the session's base commit (BASE) and of HEAD; (2) every example on every chip of the
# target table: the manifest says the chip it was compiled for, or the translation stops at a
# located target.* finding (never an error from inside NVVM).
# Usage: bench/results/2026-12-04-architecture/run.sh BASE_TRANSLATE NEW_TRANSLATE KLIB KDALIB OUT
set -uo pipefail
base=$1 new=$2 klib=$3 kdalib=$4 out=$5
mkdir -p "$out/base" "$out/new"
same=0 differ=0
for f in examples/*.mlir $(ls "$klib"/kernels/*.mlir | awk 'NR%5==0') "$kdalib"/kernels/*.mlir; do
  b=$(basename "$f" .mlir)
  "$base" "$f" --emit=ptx -o "$out/base/$b.ptx" 2>/dev/null; r1=$?
  "$new" "$f" --emit=ptx -o "$out/new/$b.ptx" 2>/dev/null; r2=$?
  if [[ $r1 == "$r2" ]] && cmp -s "$out/base/$b.ptx" "$out/new/$b.ptx"; then same=$((same + 1)); else differ=$((differ + 1)); echo "PTX DIFF $b"; fi
done
for f in examples/*.mlir; do
  b=$(basename "$f" .mlir)
  cmp -s <("$base" "$f" --emit=manifest 2>/dev/null) <("$new" "$f" --emit=manifest 2>/dev/null) || { differ=$((differ + 1)); echo "MANIFEST DIFF $b"; }
done
echo "ptx: $same identical, $differ different"
for f in examples/*.mlir; do
  for chip in sm_80 sm_90 sm_90a sm_100a; do
    if m=$("$new" "$f" --chip=$chip --emit=manifest 2>"$out/err.txt"); then
      t=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["kernels"][0]["target"])' <<<"$m" 2>/dev/null || echo "?")
      echo "$(basename "$f") $chip manifest-target=$t"
    else
      first=$(grep -m1 "error" "$out/err.txt" | sed -E 's/.*(\[[a-z0-9.-]+\]).*/\1/')
      echo "$(basename "$f") $chip refused $first"
    fi
  done
done
# ThreadModel through the analysis manager (threadmodel-time.md), with the pre-change cake-opt
# copied to build/bin/cake-opt-before:
# here: farm-bench -n 8 --timeout 300 --vs "sh -c 'for f in examples/*.mlir bench/verify-corpus/correct/*/*.mlir; do build/bin/cake-opt-before \$f --cake-verify -o /dev/null 2>/dev/null; done'" -- sh -c 'for f in examples/*.mlir bench/verify-corpus/correct/*/*.mlir; do build/bin/cake-opt $f --cake-verify -o /dev/null 2>/dev/null; done'
