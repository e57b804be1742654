// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.fence-proxy-async), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: cake.fence.proxy_async on sm_80. Applied literally (first option):
// target = "sm_90". The ops mean the same there; the kernel computes the same. Honest. (The
// second option names no op: on sm_80 there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @publish(%x: !cake.tensor<[128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[128], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] : !cake.tensor<[128], f32> -> f32
  cake.store %v, %y[%tid] : f32, !cake.tensor<[128], f32>
  // expected-error @+2 {{'cake.fence.proxy_async' op [target.fence-proxy-async] expected a target with fence.proxy.async (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @publish, or use an op that sm_80 has}}
  cake.fence.proxy_async
  cake.return
}

// -----

cake.kernel @publish(%x: !cake.tensor<[128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[128], f32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] : !cake.tensor<[128], f32> -> f32
  cake.store %v, %y[%tid] : f32, !cake.tensor<[128], f32>
  cake.fence.proxy_async
  cake.return
}
