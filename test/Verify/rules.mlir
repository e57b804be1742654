// RUN: cake-opt %s -split-input-file -verify-diagnostics -o /dev/null \
// RUN:   --cake-load-rules=%cake_src/rules/wgmma-wait-before-store.mlir,%cake_src/rules/tma-store-needs-fence.mlir \
// RUN:   --cake-rule-wgmma-wait-before-store --cake-rule-tma-store-needs-fence

// The rules shipped in rules/ (PDL, loaded at run time), each with an invalid case and a valid
// counter-example. The JSON form is the built-in passes' form.

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
  // expected-error @+2 {{'cake.wgmma.store' op [rule.wgmma-wait-before-store] expected a cake.wgmma.wait before this store}}
  // expected-note @+1 {{fix: add cake.wgmma.wait 0 after the last cake.wgmma.commit, before the store}}
  cake.wgmma.store %d, %c[%c0, %c0] masked : vector<64xf32>, !cake.tensor<[M, N], f32>
  cake.wgmma.wait 0
  cake.return
}

// -----

// Valid: the wait retires the group before the store.
cake.kernel @store_after_wait(%c: !cake.tensor<[M, N], f32>)
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
  cake.wgmma.wait 0
  cake.wgmma.store %d, %c[%c0, %c0] masked : vector<64xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

cake.kernel @no_fence(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                      %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : bf16
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %t = cake.thread_id x
  cake.store %v, %buf[%c0, %t] : bf16, !cake.smem<64x64xbf16, swizzle = 128>
  cake.barrier
  // expected-error @+2 {{'cake.tma.store' op [rule.tma-store-needs-fence] expected a cake.fence.proxy_async between the shared-memory stores and this TMA store}}
  // expected-note @+1 {{fix: add cake.fence.proxy_async after the last cake.store}}
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.tma.store_commit
  cake.tma.store_wait 0
  cake.return
}

// -----

// Valid: fenced after the stores.
cake.kernel @fenced(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                    %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : bf16
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %t = cake.thread_id x
  cake.store %v, %buf[%c0, %t] : bf16, !cake.smem<64x64xbf16, swizzle = 128>
  cake.fence.proxy_async
  cake.barrier
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.tma.store_commit
  cake.tma.store_wait 0
  cake.return
}
