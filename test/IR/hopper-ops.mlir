// RUN: cake-opt %s | cake-opt | FileCheck %s
// RUN: cake-opt %s --mlir-print-op-generic | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @hopper
// CHECK-SAME: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"}
cake.kernel @hopper(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
                    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"},
                    %c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: cake.mbarrier.alloc : !cake.mbarriers<2>
  // CHECK: cake.mbarrier.init %{{.*}}[%{{.*}}], count 1 : !cake.mbarriers<2>
  // CHECK: cake.fence.mbarrier_init
  // CHECK: cake.mbarrier.arrive %{{.*}}[%{{.*}}] : !cake.mbarriers<2>
  // CHECK: cake.mbarrier.arrive_expect_tx %{{.*}}[%{{.*}}], bytes 16384 : !cake.mbarriers<2>
  // CHECK: cake.mbarrier.wait %{{.*}}[%{{.*}}], %{{.*}} : !cake.mbarriers<2>
  // CHECK: cake.fence.proxy_async
  // CHECK: cake.elect_one
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
  cake.fence.mbarrier_init
  cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
  cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 16384 : !cake.mbarriers<2>
  cake.mbarrier.wait %bars[%c0], %c1 : !cake.mbarriers<2>
  cake.fence.proxy_async
  %e = cake.elect_one
  // CHECK: cake.pipeline.create consumers 2 : !cake.pipeline<4>
  // CHECK: cake.pipeline.slot %{{.*}}[%{{.*}}] : !cake.pipeline<4>
  %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<4>
  %slot = cake.pipeline.slot %pipe[%c1] : !cake.pipeline<4>
  %abuf = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  // CHECK: cake.warp_roles {
  // CHECK: cake.role "producer" warps [0, 4) regs 40 {
  // CHECK: cake.pipeline.producer_acquire
  // CHECK: cake.pipeline.producer_commit %{{.*}}[%{{.*}}], tx_bytes 16384 : !cake.pipeline<4>
  // CHECK: cake.tma.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
  // CHECK: cake.role "consumer" warps [4, 12) regs 232 {
  // CHECK: cake.pipeline.consumer_wait
  // CHECK: cake.wgmma.fence
  // CHECK: cake.wgmma %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
  // CHECK: cake.wgmma.commit
  // CHECK: cake.wgmma.wait 0
  // CHECK: cake.pipeline.consumer_release
  // CHECK: cake.wgmma.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked : vector<64xf32>, !cake.tensor<[M, N], f32>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      cake.pipeline.producer_acquire %pipe[%c0] : !cake.pipeline<4>
      cake.pipeline.producer_commit %pipe[%c0], tx_bytes 16384 : !cake.pipeline<4>
      cake.tma.load %ta[%c0, %c0], %abuf[%slot], %pipe[%c0]
          : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      %zero = arith.constant dense<0.0> : vector<64xf32>
      cake.pipeline.consumer_wait %pipe[%c0] : !cake.pipeline<4>
      cake.wgmma.fence
      %d = cake.wgmma %abuf[%slot, %c0, %c0], %abuf[%slot, %c0, %c0], %zero
          : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x128x64xbf16, swizzle = 128>, vector<64xf32>
      cake.wgmma.commit
      cake.wgmma.wait 0
      cake.pipeline.consumer_release %pipe[%c0] : !cake.pipeline<4>
      cake.wgmma.store %d, %c[%c0, %c0] masked : vector<64xf32>, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
