// Debian's own mlir-opt (not cake-opt) loads CakePlugin.so as a dialect and a pass plugin, then
// parses, verifies and lowers cake IR.
// REQUIRES: upstream-mlir-opt
// RUN: %upstream_mlir_opt %s --load-dialect-plugin=%cake_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %upstream_mlir_opt %s --load-dialect-plugin=%cake_plugin --load-pass-plugin=%cake_plugin \
// RUN:   --pass-pipeline="builtin.module(cake-lower-to-nvvm{chip=sm_80})" | FileCheck %s --check-prefix=NVVM
// Without the dialect plugin, upstream mlir-opt does not know the dialect.
// RUN: not %upstream_mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// ROUNDTRIP-LABEL: cake.kernel @scale
// ROUNDTRIP: cake.load %{{.*}} masked : !cake.tensor<[N], f32> -> vector<4xf32>
// NVVM: gpu.module @cake_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM-LABEL: llvm.func @scale(
// NVVM: nvvm.read.ptx.sreg.tid.x
// NOPLUGIN: error: Dialect `cake' not found for custom op 'cake.kernel'
cake.kernel @scale(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %o = arith.muli %b, %c256 : index
  %l = arith.muli %t, %c4 : index
  %i = arith.addi %o, %l : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %d = arith.addf %v, %v : vector<4xf32>
  cake.store %d, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
