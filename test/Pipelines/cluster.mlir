// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// A cluster kernel: the cluster shape is compiled in (.reqnctapercluster), ids read the cluster sregs.
// CHECK: llvm.func @cl(
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvvm.read.ptx.sreg.cluster.ctaid.x
// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: %cluster_ctaid.x
cake.kernel @cl(%x: !cake.tensor<[N], f32>) attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c = cake.cluster_block_id x
  %d = cake.cluster_id x
  %v = arith.index_cast %c : index to i32
  %f = arith.sitofp %v : i32 to f32
  %i = cake.block_id x
  cake.store %f, %x[%i] : f32, !cake.tensor<[N], f32>
  cake.return
}
