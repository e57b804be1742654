// RUN: cake-opt %s -verify-diagnostics --cake-verify -o /dev/null
// RUN: not cake-opt %s --cake-verify --cake-diagnostics=json -o /dev/null 2>&1 | FileCheck %s

// cake-verify runs every pass even after one has findings: one run reports the shared-memory
// overflow (cake-verify-smem) and the uncommitted copy (cake-verify-async), one JSON record each.

// CHECK: "rule":"smem.over-limit"
// CHECK-NEXT: "rule":"async.cp-async-uncommitted"
// CHECK-NOT: "rule"
// expected-error @+2 {{[smem.over-limit]}}
// expected-note @+1 {{fix:}}
cake.kernel @two_findings(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{bytes at offset}}
  %buf = cake.alloc_smem : !cake.smem<2x128x1024xbf16>
  %t = cake.thread_id x
  // expected-error @+2 {{[async.cp-async-uncommitted]}}
  // expected-note @+1 {{fix:}}
  cake.cp_async %a[%t, %c0], %buf[%c0, %t, %c0], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<2x128x1024xbf16>
  // expected-note @+1 {{the next wait is here}}
  cake.cp_async.wait 0
  cake.barrier
  cake.return
}
