// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.wgmma), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90a\" on @<kernel>, or use an op that sm_90 has"
// The kernel: wgmma fence/commit/wait on sm_90. Applied literally (first option):
// target = "sm_90a". The ops mean the same there; the kernel computes the same. Honest. (The
// second option names no op: on sm_90 there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @wgmma_sync() attributes {target = "sm_90", block = array<i64: 128>, symbols = [],
                                      grid = affine_map<() -> (1)>} {
  // expected-error @+2 {{'cake.wgmma.fence' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_sync, or use an op that sm_90 has}}
  cake.wgmma.fence
  // expected-error @+2 {{'cake.wgmma.commit' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_sync, or use an op that sm_90 has}}
  cake.wgmma.commit
  // expected-error @+2 {{'cake.wgmma.wait' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_90}}
  // expected-note @+1 {{fix: set target = "sm_90a" on @wgmma_sync, or use an op that sm_90 has}}
  cake.wgmma.wait 0
  cake.return
}

// -----

cake.kernel @wgmma_sync() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                      grid = affine_map<() -> (1)>} {
  cake.wgmma.fence
  cake.wgmma.commit
  cake.wgmma.wait 0
  cake.return
}
