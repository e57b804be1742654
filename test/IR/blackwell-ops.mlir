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
