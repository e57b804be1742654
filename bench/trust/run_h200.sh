#!/usr/bin/env bash
# The trust checks on the GPU machine, in one call (bench/trust/README.md says how the folder is made):
#   run from the repository root with carry [".device/trust"]:  bash bench/trust/run_h200.sh
# 1. the hack kernels against the softmax reference, with and without the task's declared outputs;
# 2. cake-run under compute-sanitizer memcheck (a reference without and one with <ref>_check);
# 3. an sm_80 cubin on the H200: the error names both architectures.
set -u
cd .device/trust
OUT=${OUT:-/tmp/trust-out}; mkdir -p "$OUT"
# cake-run-before is the runner of main before this change (dabbb65), built the same way.
run() {  # [RUNNER=./cake-run-before] NAME ARGS...: one record per line in $OUT/records.jsonl
  local name=$1; shift
  ${RUNNER:-./cake-run} "$@" > "$OUT/$name.json" 2> "$OUT/$name.err"; local rc=$?
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps({'case': sys.argv[2], 'rc': int(sys.argv[3]), 'status': r['status'], 'error': r['error'], 'outputs': [(o['name'], o['checked_by'], o['unwritten'], o['pass']) for o in r['outputs'] or []], 'inputs_modified': r['inputs_modified'], 'device': r['device']}))" "$OUT/$name.json" "$name" "$rc" >> "$OUT/records.jsonl"
}
S="--sizes M=1001,N=1000 --ref softmax_ref.cubin --seed 11 --iters 5"
RUNNER=./cake-run-before run before-no_store --cubin no_store.cubin --manifest no_store.json $S
RUNNER=./cake-run-before run before-in_place --cubin in_place.cubin --manifest in_place.json $S
RUNNER=./cake-run-before run before-vadd-sm80 --cubin vadd80.cubin --manifest vadd80.json --sizes N=4097 --ref vector_add_ref.cubin
run softmax-declared        --cubin softmax.cubin  --manifest softmax.json  $S --outputs y
run no_store-undeclared     --cubin no_store.cubin --manifest no_store.json $S
run no_store-declared       --cubin no_store.cubin --manifest no_store.json $S --outputs y
run in_place-undeclared     --cubin in_place.cubin --manifest in_place.json $S
run in_place-declared       --cubin in_place.cubin --manifest in_place.json $S --outputs y
run vadd-sm80-on-h200       --cubin vadd80.cubin   --manifest vadd80.json --sizes N=4097 --ref vector_add_ref.cubin
echo "== records"; cat "$OUT/records.jsonl"

echo "== compute-sanitizer memcheck"
for case in "before-softmax:--cubin softmax.cubin --manifest softmax.json $S" \
            "softmax:--cubin softmax.cubin --manifest softmax.json $S --outputs y" \
            "kmeans:--cubin kmeans.cubin --manifest kmeans.json --sizes B=2,N=1000,K=37 --ref kmeans_fp16_ref.cubin --seed 3 --iters 2 --outputs idx"; do
  name=${case%%:*}; args=${case#*:}
  runner=./cake-run; [[ $name == before-* ]] && runner=./cake-run-before
  compute-sanitizer --tool memcheck --target-processes all --log-file "$OUT/memcheck-$name.%p.txt" \
    $runner $args > "$OUT/memcheck-$name.json" 2> "$OUT/memcheck-$name.err"
  echo "$name rc=$? record: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['status'], 'ref_check=%s' % r['ref_check'])" "$OUT/memcheck-$name.json" 2>&1) sanitizer: $(cat "$OUT"/memcheck-$name.*.txt | grep -h "ERROR SUMMARY\|Program hit" | sort | uniq -c | tr '\n' ' ')"
done
cp -r "$OUT" "${DEST:-/dev/null}" 2>/dev/null || true
