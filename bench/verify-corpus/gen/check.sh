#!/bin/sh
# Parse + op-verify every corpus file (and optionally emit PTX): prints failures only.
# usage: gen/check.sh [ptx] [files...]
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OPT=$ROOT/build/bin/cake-opt
TR=$ROOT/build/bin/cake-translate
mode=$1
[ "$mode" = ptx ] && shift
[ $# -eq 0 ] && set -- $(find "$ROOT/bench/verify-corpus/buggy" "$ROOT/bench/verify-corpus/correct" -name '*.mlir' | sort)
for f in "$@"; do
  if ! out=$("$OPT" "$f" -o /dev/null 2>&1); then
    echo "PARSE-FAIL $f"; echo "$out" | head -5
  elif [ "$mode" = ptx ]; then
    if ! out=$("$TR" "$f" --emit=ptx -o /dev/null 2>&1); then
      echo "PTX-FAIL $f"; echo "$out" | head -5
    fi
  fi
done
