// The thread model folds the index dialect's integer ops as it folds arith's: the lanes below
// are picked with index.constant / remu / and / cmp / casts, and the model knows exactly which
// threads run the store (lane mod 8 == 1; without index folding: "at most 64 of 64", not exact).
//
// RUN: cake-opt %s -o /dev/null --mlir-print-op-on-diagnostic=false --cake-print-thread-model 2>&1 \
// RUN:   | FileCheck %s
//
// The cost model reads the same values (the thread model at its simulated sizes): 4 lanes of
// the warp store, 16 bytes in 4 sectors (its own evaluator, before session 28, folded no index
// op and priced all 32 lanes as one coalesced 128-byte store).
// RUN: cake-opt %s -o /dev/null --mlir-print-op-on-diagnostic=false \
// RUN:   --cake-print-cost="profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s --check-prefix=COST
// COST: bytes_l2 = 256; bytes_useful = 32
// COST: thread-model-index-dialect.mlir:[[@LINE+19]]:5: remark: cost: uncoalesced store: a warp access touches 4 sectors (128 B) for 16 B it uses

// CHECK: thread-model-index-dialect.mlir:[[@LINE+17]]:5: remark: executed by 8 of 64 threads: [1, 2) [9, 10) [17, 18) [25, 26) ...
cake.kernel @index_lanes(%out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %zero = arith.constant 0.0 : f32
  %lane = cake.lane_id
  %c8 = index.constant 8
  %c1 = index.constant 1
  %c3 = index.constant 3
  %low = index.remu %lane, %c8
  %bit = index.and %low, %c1
  %wide = index.casts %bit : index to i64
  %one = arith.constant 1 : i64
  %odd = arith.cmpi eq, %wide, %one : i64
  %small = index.cmp ult(%low, %c3)
  %both = arith.andi %odd, %small : i1
  scf.if %both {
    cake.store %zero, %out[%lane] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
