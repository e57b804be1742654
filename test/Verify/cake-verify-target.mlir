// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-target -o /dev/null

// cake-verify-target: each op against the oldest target that has it. (Ops whose verifier checks
// the target already, such as cake.wgmma or cake.tma.load, never reach the pass on a wrong target.)

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

// tcgen05.commit has no verifier of its own: the pass names the target it needs.
cake.kernel @tcgen05_commit_on_hopper() attributes {target = "sm_90a", block = array<i64: 128>,
                                                   symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+3 {{'cake.tcgen05.commit' op [target.tcgen05] expected a target with tcgen05 (sm_100a), got sm_90a}}
  // expected-note @-5 {{the kernel's target is set here}}
  // expected-note @+1 {{fix: set target = "sm_100a" on @tcgen05_commit_on_hopper, or use an op that sm_90a has}}
  cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  cake.return
}
