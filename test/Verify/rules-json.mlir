// RUN: not cake-opt %s --cake-diagnostics=json -o /dev/null \
// RUN:   --cake-load-rules=%cake_src/rules/wgmma-wait-before-store.mlir --cake-verify 2>&1 | FileCheck %s

// A loaded rule's finding in the JSON form, once, from cake-verify (which runs the loaded rules
// after its own passes).

// CHECK: {"col":3,"file":"{{.*}}rules-json.mlir","hint":"add cake.wgmma.wait 0 after the last cake.wgmma.commit, before the store","line":[[@LINE+13]],"message":"expected a cake.wgmma.wait before this store: the accumulator may still be written by a running wgmma","notes":[],"op":"cake.wgmma.store","rule":"rule.wgmma-wait-before-store","schema":"cake-diagnostic","severity":"error","version":1}
// CHECK-NOT: "rule"
cake.kernel @store_before_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %abuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  cake.barrier
  cake.wgmma.fence
  %d = cake.wgmma %abuf[%c0, %c0], %abuf[%c0, %c0], %zero
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, vector<64xf32>
  cake.wgmma.commit
  cake.wgmma.store %d, %c[%c0, %c0] masked : vector<64xf32>, !cake.tensor<[M, N], f32>
  cake.wgmma.wait 0
  cake.return
}
