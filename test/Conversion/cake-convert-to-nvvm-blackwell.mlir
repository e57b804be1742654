// RUN: cake-opt %s --cake-convert-to-nvvm | FileCheck %s

// The tcgen05 / tensor-memory ops: block-collective allocation (warp 0 allocates and gives up
// the permit, the block synchronizes with tcgen05 fences around the barrier, every thread reads
// the address), the MMA with its shared-memory and instruction descriptors, the commit on an
// mbarrier, the row load with its wait, and the free after a barrier.

// CHECK: gpu.module @cake_kernels [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">]
// CHECK-LABEL: gpu.func @tcgen05
// CHECK: scf.if
// CHECK:   nvvm.tcgen05.alloc %{{.*}}, %c256_i32 : !llvm.ptr<3>, i32
// CHECK:   nvvm.tcgen05.relinquish_alloc_permit
// CHECK: nvvm.tcgen05.fence <before>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[T:.*]] = llvm.inttoptr %[[W]] : i32 to !llvm.ptr<6>
// The descriptors carry the version bit 46 (70368744177664):
// CHECK: arith.constant 70368744177664 : i64
// Instruction descriptor: f32 D (1 << 4), bf16 A and B (1 << 7, 1 << 10), N = 256 (32 << 17),
// M = 128 (8 << 24): 138413200.
// CHECK: %[[ID:.*]] = arith.constant 138413200 : i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: nvvm.tcgen05.mma %[[T]], %{{.*}}, %{{.*}}, %[[ID]], %false {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK: nvvm.tcgen05.fence <before>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: scf.if
// CHECK:   nvvm.tcgen05.dealloc %[[T]], %c256_i32{{.*}} : !llvm.ptr<6>, i32
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
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32>
  cake.return
}

// Two allocations: only the last gives up the permit.
// CHECK-LABEL: gpu.func @two
// CHECK: nvvm.tcgen05.alloc
// CHECK-NOT: relinquish
// CHECK: nvvm.tcgen05.alloc
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
cake.kernel @two() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %x = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %y = cake.tmem.alloc : !cake.tmem<128x32xf32>
  cake.tmem.dealloc %y : !cake.tmem<128x32xf32>
  cake.tmem.dealloc %x : !cake.tmem<128x128xf32>
  cake.return
}

// The row store: the registers as i32, tcgen05.st.32x32b, its wait, the fence before the
// synchronization that hands the columns to an MMA.
// CHECK-LABEL: gpu.func @store
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %[[BITS]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<8xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
cake.kernel @store() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<0.0> : vector<8xf32>
  %acc = cake.tmem.alloc : !cake.tmem<128x32xf32>
  cake.tmem.store %v, %acc[%c0] : vector<8xf32>, !cake.tmem<128x32xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x32xf32>
  cake.return
}

// fp8 operands: kind::f8f6f4; instruction descriptor f32 D (1 << 4), e4m3 A (0 << 7), e5m2 B
// (1 << 10), N = 128 (16 << 17), M = 128 (8 << 24): 136315920. The copy: the source's
// descriptor, lane 0 at the column.
// CHECK-LABEL: gpu.func @fp8_copy
// CHECK: %[[T:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
// CHECK: nvvm.tcgen05.fence <after>
// CHECK-NEXT: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
// CHECK: %[[ID:.*]] = arith.constant 136315920 : i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: nvvm.tcgen05.mma %[[T]], %{{.*}}, %{{.*}}, %[[ID]], %true {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>}
cake.kernel @fp8_copy() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x128xf8E4M3FN, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x128xf8E5M2, swizzle = 128>
  %bias = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  cake.tcgen05.cp %bias[%c0, %c0], %acc[%c8] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<128x128xf8E5M2, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// A CTA pair: cta_group::2 allocation, permit and free; the MMA (M = 256: 16 << 24, so
// 1 << 4 | 1 << 7 | 1 << 10 | 32 << 17 | 16 << 24 = 272630928) and the commit only in the even
// block (cluster rank & 1 == 0), the commit multicast to ranks rank and rank + 1 (3 << rank).
// CHECK-LABEL: gpu.func @pair
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %c256_i32 {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// CHECK: %[[R:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[LOW:.*]] = arith.andi %[[R]], %c1_i32
// CHECK: %[[EVEN:.*]] = arith.cmpi eq, %[[LOW]], %c0_i32
// CHECK: scf.if %[[EVEN]] {
// CHECK: arith.constant 272630928 : i32
// CHECK: nvvm.tcgen05.mma {{.*}}ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>
// CHECK: %[[R2:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: scf.if
// CHECK: %[[M:.*]] = arith.shli %c3_i32{{.*}}, %[[R2]] : i32
// CHECK: %[[M16:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[M16]] {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.tcgen05.dealloc {{.*}}group = #nvvm.cta_group<cta_2>
cake.kernel @pair() attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
    grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
  cake.tcgen05.commit %bars[%c0] pair : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// Cluster launch control: the request with the answer's address (slot 1: 16 bytes in) and the
// barrier's; the query loads the 16-byte answer and decodes it.
// CHECK-LABEL: gpu.func @clc
// CHECK: nvvm.clusterlaunchcontrol.try.cancel %{{.*}}, %{{.*}}
// CHECK: %[[ANS:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> i128
// CHECK: nvvm.clusterlaunchcontrol.query.cancel query = is_canceled, %[[ANS]] : i1
// CHECK: nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_x, %[[ANS]] : i32
// CHECK: nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_y, %[[ANS]] : i32
// CHECK: nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_z, %[[ANS]] : i32
cake.kernel @clc(%out: !cake.tensor<[4], i32> {cake.name = "out"}) attributes {
    target = "sm_100a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %resp = cake.alloc_smem : !cake.smem<2x4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.clc.try_cancel %resp[%c1], %bars[%c0] : !cake.smem<2x4xi32>, !cake.mbarriers<1>
  %taken, %x, %y, %z = cake.clc.query %resp[%c1] : !cake.smem<2x4xi32>
  %s = arith.addi %x, %y : index
  %t = arith.addi %s, %z : index
  %u = arith.select %taken, %t, %c0 : index
  %v = arith.index_cast %u : index to i32
  %w = vector.broadcast %v : i32 to vector<1xi32>
  cake.store %w, %out[%c0] : vector<1xi32>, !cake.tensor<[4], i32>
  cake.return
}
