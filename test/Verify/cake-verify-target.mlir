// RUN: cake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --cake-verify-target -o /dev/null

// cake-verify-target: each op against the oldest target that has it. It is the one check of
// targets: op verifiers accept any target, and each op states its need in ODS (CakeRequires).

// Valid: the Hopper fences, mbarrier waits and wgmma groups on sm_90a.
cake.kernel @valid() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.fence.proxy_async
  cake.fence.mbarrier_init
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.wgmma.fence
  cake.wgmma.commit
  cake.wgmma.wait 0
  %cid = cake.cluster_id x
  cake.return
}

// -----

// Valid: sm_80 has mbarriers with plain arrivals.
cake.kernel @ampere_mbarrier() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
  cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  cake.return
}

// -----

// Async-proxy fences, mbarrier fences and try_wait need sm_90.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @hopper_sync_on_ampere() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{[target.fence-proxy-async] expected a target with fence.proxy.async (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_sync_on_ampere, or use an op that sm_80 has}}
  cake.fence.proxy_async
  // expected-error @+2 {{[target.fence-mbarrier-init] expected a target with fence.mbarrier_init (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_sync_on_ampere, or use an op that sm_80 has}}
  cake.fence.mbarrier_init
  // expected-error @+2 {{[target.mbarrier-try-wait] expected a target with mbarrier.try_wait.parity (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_sync_on_ampere, or use an op that sm_80 has}}
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

// Cluster ids need sm_90.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @cluster_on_ampere() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{[target.cluster] expected a target with thread block clusters (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @cluster_on_ampere, or use an op that sm_80 has}}
  %cid = cake.cluster_id x
  // expected-error @+2 {{[target.cluster] expected a target with thread block clusters (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @cluster_on_ampere, or use an op that sm_80 has}}
  %cbid = cake.cluster_block_id y
  cake.return
}

// -----

// wgmma groups need sm_90a: not sm_90, ...
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @wgmma_on_sm90() attributes {target = "sm_90", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{[target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_on_sm90, or use an op that sm_90 has}}
  cake.wgmma.fence
  // expected-error @+2 {{[target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_on_sm90, or use an op that sm_90 has}}
  cake.wgmma.commit
  // expected-error @+2 {{[target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_on_sm90, or use an op that sm_90 has}}
  cake.wgmma.wait 0
  cake.return
}

// -----

// ... and not sm_100a (Blackwell has no wgmma).
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @wgmma_on_sm100a() attributes {target = "sm_100a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{[target.wgmma] expected a target with wgmma (sm_90a), got sm_100a}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_on_sm100a, or use an op that sm_100a has}}
  cake.wgmma.fence
  cake.return
}

// -----

// tcgen05.commit on Hopper: the note at the kernel comes first, then the fix.
cake.kernel @tcgen05_commit_on_hopper() attributes {target = "sm_90a", block = array<i64: 128>,
                                                   symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+3 {{'cake.tcgen05.commit' op [target.tcgen05] expected a target with tcgen05 and tensor memory (sm_100a), got sm_90a}}
  // expected-note @-5 {{the kernel's target is set here}}
  // expected-note @+1 {{fix: set target = "sm_100a" on @tcgen05_commit_on_hopper, or use an op that sm_90a has}}
  cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  cake.return
}

// -----

// The kernel's own needs: TMA parameters ...
// expected-error @+3 {{'cake.kernel' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
// expected-note @+2 {{the kernel's target is set here}}
// expected-note @+1 {{fix: set target = "sm_90" on @tma_parameter_on_ampere, or use an op that sm_80 has}}
cake.kernel @tma_parameter_on_ampere(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// ... and a cluster.
// expected-error @+3 {{'cake.kernel' op [target.cluster] expected a target with thread block clusters (sm_90, sm_90a, sm_100a), got sm_80}}
// expected-note @+2 {{the kernel's target is set here}}
// expected-note @+1 {{fix: set target = "sm_90" on @cluster_attribute_on_ampere, or use an op that sm_80 has}}
cake.kernel @cluster_attribute_on_ampere(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_80", block = array<i64: 32>, cluster = array<i64: 2>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// The other Hopper ops on sm_80, a TMA load of a descriptor from elsewhere included.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @hopper_ops_on_ampere() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %ta = "test.descriptor"() : () -> !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  // expected-error @+2 {{'cake.tma.load' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  cake.tma.load %ta[%c0, %c0], %buf[], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  // expected-error @+2 {{'cake.tma.store_wait' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  cake.tma.store_wait 0
  // expected-error @+2 {{'cake.elect_one' op [target.elect] expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  %e = cake.elect_one
  // expected-error @+2 {{'cake.grid_dependency.launch_dependents' op [target.grid-dependency] expected a target with programmatic dependent launch (griddepcontrol) (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  cake.grid_dependency.launch_dependents
  // expected-error @+2 {{'cake.mbarrier.arrive_expect_tx' op [target.mbarrier-tx] expected a target with mbarrier transaction counts (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 128 : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.pipeline.create' op [target.pipeline] expected a target with TMA pipelines (mbarrier transaction counts) (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %sbuf = cake.alloc_smem : !cake.smem<64x32xbf16>
  %v = arith.constant dense<0> : vector<4xi32>
  // expected-error @+2 {{'cake.stmatrix' op [target.stmatrix] expected a target with stmatrix (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @hopper_ops_on_ampere, or use an op that sm_80 has}}
  cake.stmatrix %v, %sbuf[%c0, %c0] : vector<4xi32>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

// wgmma and wgmma.regs on sm_90.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @wgmma_ops_on_sm90() attributes {target = "sm_90", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+2 {{'cake.wgmma' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_ops_on_sm90, or use an op that sm_90 has}}
  %d = cake.wgmma %buf[%c0, %c0], %buf[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  %a = arith.constant dense<0.0> : vector<8xbf16>
  // expected-error @+2 {{'cake.wgmma.regs' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_ops_on_sm90, or use an op that sm_90 has}}
  %r = cake.wgmma.regs %a, %buf[%c0, %c0], %acc : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

// A register budget needs setmaxnreg; a role without one does not.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @role_budget_on_sm90() attributes {target = "sm_90", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    // expected-error @+2 {{'cake.role' op [target.setmaxnreg] expected a target with register reallocation (setmaxnreg) (sm_90a, sm_100a), got sm_90}}
    // expected-note @+1 {{fix: set target = "sm_90a" on @role_budget_on_sm90, or use an op that sm_90 has}}
    cake.role "consumer" warps [4, 8) regs 232 {
    }
  }
  cake.return
}

// -----

// Tensor memory on Hopper.
// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @tensor_memory_on_hopper() attributes {target = "sm_90a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+2 {{'cake.tmem.alloc' op [target.tcgen05] expected a target with tcgen05 and tensor memory (sm_100a), got sm_90a}}
  // expected-note @+1 {{fix: set target = "sm_100a" on @tensor_memory_on_hopper, or use an op that sm_90a has}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+2 {{'cake.tmem.dealloc' op [target.tcgen05] expected a target with tcgen05 and tensor memory (sm_100a), got sm_90a}}
  // expected-note @+1 {{fix: set target = "sm_100a" on @tensor_memory_on_hopper, or use an op that sm_90a has}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
