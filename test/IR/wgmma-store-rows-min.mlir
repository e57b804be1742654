// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --cake-verify -o /dev/null

// cake.wgmma.store_rows ... min: split-K KMeans. Each block saw a span of the centroids; its
// rows' argmins, packed as (distance key << 32 | index), merge into one i64 per point by an
// atomic unsigned minimum, whatever order the blocks finish in (the store form writes instead).
// ROUNDTRIP: cake.wgmma.store_rows %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked min : vector<2xi64>, !cake.tensor<[B, N], i64>
// ROUNDTRIP: cake.wgmma.store_rows %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] min : vector<2xi64>, !cake.tensor<[B, N], i64>
// LLVM: llvm.atomicrmw umin %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i64
// LLVM-NOT: llvm.store {{.*}} : i64, !llvm.ptr<1>
// PTX: {{(red|atom)}}.global.min.u64

cake.kernel @merge_rows(%best: !cake.tensor<[B, N], i64> {cake.name = "best"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["B", "N"],
                grid = affine_map<()[b, n] -> (n ceildiv 64, b)>} {
  %c64 = arith.constant 64 : index
  %bx = cake.block_id x
  %b = cake.block_id y
  %m0 = arith.muli %bx, %c64 : index
  %packed = arith.constant dense<[4294967296, 8589934593]> : vector<2xi64>
  cake.wgmma.store_rows %packed, %best[%b, %m0] masked min : vector<2xi64>, !cake.tensor<[B, N], i64>
  cake.wgmma.store_rows %packed, %best[%b, %m0] min : vector<2xi64>, !cake.tensor<[B, N], i64>
  cake.return
}
