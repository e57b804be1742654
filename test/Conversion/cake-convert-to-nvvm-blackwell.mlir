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
