// RUN: not cake-opt %s -split-input-file --cake-verify --cake-diagnostics=json -o /dev/null 2>&1 | FileCheck %s
// The same diagnostics as one SARIF 2.1.0 log (findings with their rules, a warning among them, and
// an op verifier error without one), printed when cake-opt is done:
// RUN: not cake-opt %s -split-input-file --cake-verify --cake-diagnostics=sarif -o /dev/null 2> %t.sarif
// RUN: python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; res=r['results']; print(sorted(str(x.get('ruleId')) for x in res), [x['id'] for x in r['tool']['driver']['rules']], [x['relatedLocations'][0]['message']['text'] for x in res if 'ruleId' not in x])" %t.sarif | FileCheck %s --check-prefix=SARIF
// SARIF: ['None', 'pipeline.tx-bytes', 'tma.coord-stride'] ['pipeline.tx-bytes', 'tma.coord-stride'] ['the other role is here']

// --cake-diagnostics=json: one JSON record per finding on stderr, with the rule id, severity,
// location, op, message, notes and the fix hint; op verifier errors have a null rule.

// CHECK: {"col":13,"file":"{{.*}}diagnostics-json.mlir","hint":"set tx_bytes 8192","line":[[@LINE+19]],"message":"expected tx_bytes to equal the 8192 bytes of the TMA copies into this iteration's stage, got 4096","notes":[{"col":13,"file":"{{.*}}diagnostics-json.mlir","line":[[@LINE+21]],"message":"copies 8192 bytes"}],"op":"cake.pipeline.producer_commit","rule":"pipeline.tx-bytes","schema":"cake-diagnostic","severity":"error","version":1}
cake.kernel @tx_bytes(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            cake.pipeline.producer_acquire %pipe[%i] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[%i], tx_bytes 4096 : !cake.pipeline<2>
            %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
            cake.tma.load %ta[%c0, %i], %buf[%s], %pipe[%i]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        cake.pipeline.consumer_wait %pipe[%i] : !cake.pipeline<2>
        %s = cake.pipeline.slot %pipe[%i] : !cake.pipeline<2>
        %v = cake.load %buf[%s, %c0, %lane] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
        cake.pipeline.consumer_release %pipe[%i] : !cake.pipeline<2>
      }
    }
  }
  cake.return
}

// -----

// An op verifier's error, at parse time: no rule id, no hint.
// CHECK: {"col":5,"file":"{{.*}}diagnostics-json.mlir","hint":null,"line":[[@LINE+5]],"message":"warp range [2, 6) overlaps role 'a'","notes":[{"col":5,"file":"{{.*}}diagnostics-json.mlir","line":[[@LINE+3]],"message":"the other role is here"}],"op":"cake.role","rule":null,"schema":"cake-diagnostic","severity":"error","version":1}
cake.kernel @overlap() attributes {target = "sm_90a", block = array<i64: 256>, symbols = [], grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
    }
    cake.role "b" warps [2, 6) {
    }
  }
  cake.return
}
