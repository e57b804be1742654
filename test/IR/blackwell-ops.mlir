// RUN: cake-opt %s | cake-opt | FileCheck %s

// Round trip of the tcgen05 / tensor-memory ops (sm_100a).

// CHECK-LABEL: cake.kernel @tcgen05
// CHECK: %[[ACC:.*]] = cake.tmem.alloc : !cake.tmem<128x256xf32>
// CHECK: cake.tcgen05.mma %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], %[[ACC]], accumulate %{{.*}} : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<256x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32>
// CHECK: cake.tcgen05.commit %{{.*}}[%{{.*}}] : !cake.mbarriers<1>
// CHECK: cake.tmem.load %[[ACC]][%{{.*}}] : !cake.tmem<128x256xf32> -> vector<32xf32>
// CHECK: cake.tmem.store %{{.*}}, %[[ACC]][%{{.*}}] : vector<32xf32>, !cake.tmem<128x256xf32>
// CHECK: cake.tmem.dealloc %[[ACC]] : !cake.tmem<128x256xf32>
cake.kernel @tcgen05() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<256x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32>
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<256x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32>
  cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x256xf32> -> vector<32xf32>
  cake.tmem.store %v, %acc[%c0] : vector<32xf32>, !cake.tmem<128x256xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32>
  cake.return
}

// CHECK-LABEL: cake.kernel @tf32
// CHECK: cake.tmem.alloc : !cake.tmem<128x32xf32>
cake.kernel @tf32() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<2x128x32xf32, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<2x32x32xf32, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x32xf32>
  cake.tcgen05.mma %a[%c0, %c0, %c0], %b[%c0, %c0, %c0], %acc, accumulate %true
      : !cake.smem<2x128x32xf32, swizzle = 128>, !cake.smem<2x32x32xf32, swizzle = 128>, !cake.tmem<128x32xf32>
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x32xf32> -> vector<1xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x32xf32>
  cake.return
}

// fp8 operands, a copy into tensor memory, cluster launch control.
// CHECK-LABEL: cake.kernel @fp8_copy_clc
// CHECK: cake.tcgen05.cp %{{.*}}[%{{.*}}, %{{.*}}], %[[ACC:.*]][%{{.*}}] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
// CHECK: cake.tcgen05.mma %{{.*}}, %[[ACC]], accumulate %{{.*}} : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<128x128xf8E5M2, swizzle = 128>, !cake.tmem<128x128xf32>
// CHECK: cake.clc.try_cancel %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] : !cake.smem<2x4xi32>, !cake.mbarriers<2>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = cake.clc.query %{{.*}}[%{{.*}}] : !cake.smem<2x4xi32>
cake.kernel @fp8_copy_clc() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x128xf8E4M3FN, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x128xf8E5M2, swizzle = 128>
  %bias = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %resp = cake.alloc_smem : !cake.smem<2x4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  cake.tcgen05.cp %bias[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<128x128xf8E5M2, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.clc.try_cancel %resp[%c0], %bars[%c0] : !cake.smem<2x4xi32>, !cake.mbarriers<2>
  %taken, %x, %y, %z = cake.clc.query %resp[%c0] : !cake.smem<2x4xi32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// A CTA pair: the allocation's type, the pair commit, a multicast answer.
// CHECK-LABEL: cake.kernel @pair
// CHECK: %[[P:.*]] = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
// CHECK: cake.tcgen05.mma %{{.*}}, %[[P]], accumulate %{{.*}} : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
// CHECK: cake.tcgen05.commit %{{.*}}[%{{.*}}] pair : !cake.mbarriers<1>
// CHECK: cake.clc.try_cancel multicast %{{.*}}[], %{{.*}}[%{{.*}}] : !cake.smem<4xi32>, !cake.mbarriers<1>
// CHECK: cake.tmem.dealloc %[[P]] : !cake.tmem<128x256xf32, pair>
cake.kernel @pair() attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
    grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
  cake.tcgen05.commit %bars[%c0] pair : !cake.mbarriers<1>
  cake.clc.try_cancel multicast %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}
