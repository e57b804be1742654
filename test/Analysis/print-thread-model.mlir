// cake-print-thread-model: which threads the verifier's model says execute each op, in general
// (sizes unknown: the guard on N is undecidable) and for one launch (sizes=, block=).
//
// RUN: cake-opt %s -o /dev/null --mlir-print-op-on-diagnostic=false --cake-print-thread-model 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERAL
// RUN: cake-opt %s -o /dev/null --mlir-print-op-on-diagnostic=false \
// RUN:   --cake-print-thread-model="sizes=M=5,N=3 block=4" 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: not cake-opt %s -o /dev/null --cake-print-thread-model="sizes=M=x" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-SIZES
// RUN: not cake-opt %s -o /dev/null --cake-print-thread-model="sizes=M=1 block=1,2,3,4" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-BLOCK

// GENERAL: remark: thread model: 64 threads per block, sizes and block ids unknown
// GENERAL: print-thread-model.mlir:37:10: remark: executed by at most 64 of 64 threads: [0, 64) (not exact: some reach it under conditions the model cannot decide)
// GENERAL: print-thread-model.mlir:36:3: note: control flow here depends on the thread
// GENERAL: print-thread-model.mlir:38:10: remark: executed by at most 64 of 64 threads
// GENERAL: print-thread-model.mlir:36:3: remark: executed by 64 of 64 threads: [0, 64)

// LAUNCH: remark: thread model: 64 threads per block, one launch (sizes and block bound)
// LAUNCH: print-thread-model.mlir:37:10: remark: executed by 6 of 64 threads: [0, 3) [32, 35)
// LAUNCH: print-thread-model.mlir:38:10: remark: executed by 6 of 64 threads: [0, 3) [32, 35)
// LAUNCH: print-thread-model.mlir:41:7: remark: executed by 2 of 64 threads: [0, 1) [32, 33)

// BAD-SIZES: error: cake-print-thread-model: invalid sizes entry 'M=x': expected NAME=VALUE
// BAD-BLOCK: error: cake-print-thread-model: invalid block '1,2,3,4': expected X[,Y[,Z]]

cake.kernel @short_rows(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %inside = arith.cmpi ult, %lane, %n : index
  scf.if %inside {
    %v = cake.load %x[%row, %lane] : !cake.tensor<[M, N], f32> -> f32
    %s = cake.warp_reduce sum %v : f32
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      cake.store %s, %out[%row] : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}
