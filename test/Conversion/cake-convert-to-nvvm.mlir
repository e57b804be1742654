// RUN: cake-opt %s --cake-convert-to-nvvm -split-input-file | FileCheck %s

// The ABI: tensors become global pointers, symbols trailing i64 parameters; ids become gpu ops.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @cake_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK-LABEL: gpu.func @abi
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[A:.*]]: f32, %[[N:.*]]: i64, %[[D:.*]]: i64) kernel
// CHECK-SAME: cake.symbols = ["N", "D"]
// CHECK-SAME: known_block_size = array<i32: 64, 2, 1>
// CHECK: %[[NI:.*]] = arith.index_cast %[[D]] : i64 to index
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id y
// CHECK: gpu.grid_dim z
// CHECK: arith.constant 64 : index
// CHECK: gpu.lane_id
// CHECK: gpu.return
cake.kernel @abi(%x: !cake.tensor<[N, D], f32>, %a: f32)
    attributes {target = "sm_90a", block = array<i64: 64, 2>, symbols = ["N", "D"],
                grid = affine_map<()[n, d] -> (n, d)>} {
  %d = cake.problem_size "D"
  %0 = cake.thread_id x
  %1 = cake.block_id y
  %2 = cake.grid_dim z
  %3 = cake.block_dim x
  %4 = cake.lane_id
  cake.return
}

// -----

// warp_id over a 2-D block: linear id = tid.x + 64 * tid.y, then / 32.
// CHECK-LABEL: gpu.func @warp_ids
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[S:.*]] = arith.muli %[[TY]], %[[C64]]
// CHECK: %[[L:.*]] = arith.addi %[[TX]], %[[S]]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: arith.divui %[[L]], %[[C32]]
// CHECK: arith.constant 128 : index
// CHECK: arith.divui
cake.kernel @warp_ids()
    attributes {target = "sm_90a", block = array<i64: 64, 4>, grid = affine_map<() -> (1)>} {
  %w = cake.warp_id
  %g = cake.warpgroup_id
  cake.return
}

// -----

// A row-major 2-D access: offset = i * D + j, with D the symbol parameter.
// CHECK-LABEL: gpu.func @global_access
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64, %[[D:.*]]: i64)
// The offset is index arithmetic (the lowering's index width), sign-extended once for the GEP.
// CHECK: %[[I:.*]] = gpu.block_id x
// CHECK: %[[J:.*]] = gpu.thread_id x
// CHECK: %[[DI:.*]] = arith.index_cast %[[D]] : i64 to index
// CHECK: %[[T:.*]] = arith.muli %[[I]], %[[DI]] : index
// CHECK: %[[O:.*]] = arith.addi %[[T]], %[[J]] : index
// CHECK: %[[O64:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK: %[[P:.*]] = llvm.getelementptr %[[X]][%[[O64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
cake.kernel @global_access(%x: !cake.tensor<[N, D], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "D"],
                grid = affine_map<()[n, d] -> (n)>} {
  %i = cake.block_id x
  %j = cake.thread_id x
  %v = cake.load %x[%i, %j] : !cake.tensor<[N, D], f32> -> vector<4xf32>
  cake.store %v, %x[%i, %j] : vector<4xf32>, !cake.tensor<[N, D], f32>
  cake.return
}

// -----

// Masked: outer index < N, then the whole vector (j + 3 < D) or lane by lane with the pad.
// CHECK-LABEL: gpu.func @masked
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64, %[[D:.*]]: i64)
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %[[NI]] : index
// CHECK: %[[ROWOK:.*]] = arith.andi %{{.*}}, %[[ROW]] : i1
// CHECK: %[[DI:.*]] = arith.index_cast %[[D]] : i64 to index
// CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[LAST]], %[[DI]] : index
// CHECK: %[[FULL:.*]] = arith.andi %[[ROWOK]], %[[IN]] : i1
// CHECK: scf.if %[[FULL]] -> (vector<2xf32>)
// CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: } else {
// CHECK:   vector.broadcast %[[PAD:.*]] : f32 to vector<2xf32>
// CHECK:   scf.if %{{.*}} -> (f32)
// CHECK:     llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:   } else {
// CHECK:     scf.yield %[[PAD]] : f32
// CHECK:   vector.insert
// CHECK: scf.if %{{.*}} {
// CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK:   scf.if
// CHECK:     vector.extract
// CHECK:     llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
cake.kernel @masked(%x: !cake.tensor<[N, D], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "D"],
                grid = affine_map<()[n, d] -> (n)>} {
  %i = cake.block_id x
  %j = cake.thread_id x
  %pad = arith.constant 0xFF800000 : f32
  %v = cake.load %x[%i, %j] masked pad(%pad : f32) : !cake.tensor<[N, D], f32> -> vector<2xf32>
  cake.store %v, %x[%i, %j] masked : vector<2xf32>, !cake.tensor<[N, D], f32>
  cake.return
}

// -----

// Shared memory: allocations are offsets in one extern (dynamic) shared segment, each aligned
// (1024 bytes for a 128-byte swizzle); 128-byte swizzle XORs bits 4-6 of the byte offset with 7-9.
// CHECK-LABEL: gpu.module @cake_kernels
// CHECK: llvm.mlir.global external @__cake_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @smem
// CHECK: %[[SEG:.*]] = llvm.mlir.addressof @__cake_smem : !llvm.ptr<3>
// CHECK: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[SEG]][%[[C0]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[SEG1:.*]] = llvm.mlir.addressof @__cake_smem : !llvm.ptr<3>
// CHECK: %[[C8192:.*]] = arith.constant 8192 : i64
// CHECK: llvm.getelementptr %[[SEG1]][%[[C8192]]]
// CHECK: %[[C7:.*]] = arith.constant 7 : i64
// CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[OFF:.*]], %[[C7]]
// CHECK: %[[C7M:.*]] = arith.constant 7 : i64
// CHECK: %[[BITS:.*]] = arith.andi %[[ROW]], %[[C7M]]
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[MASK:.*]] = arith.shli %[[BITS]], %[[C4]]
// CHECK: %[[SW:.*]] = arith.xori %[[OFF]], %[[MASK]]
// CHECK: %[[P:.*]] = llvm.getelementptr %[[BASE]][%[[SW]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[P]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
cake.kernel @smem()
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = cake.thread_id x
  %a = cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<32xf32>
  %v = arith.constant dense<1.0> : vector<8xf16>
  cake.store %v, %a[%t, %c0] : vector<8xf16>, !cake.smem<64x64xf16, swizzle = 128>
  cake.barrier
  %s = cake.load %b[%t] : !cake.smem<32xf32> -> f32
  cake.return
}

// -----

// Warp reductions: xor butterflies over the lanes, ties of argmin go to the smaller index.
// CHECK-LABEL: gpu.func @reduce
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: gpu.shuffle  xor %{{.*}}, %[[C2]]
// CHECK: arith.maximumf
// CHECK: gpu.shuffle  xor
// CHECK: arith.maximumf
// CHECK: %[[OV:.*]], %{{.*}} = gpu.shuffle  xor %[[V:.*]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[OI:.*]], %{{.*}} = gpu.shuffle  xor %[[I:.*]], %{{.*}}, %{{.*}} : i32
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[OV]], %[[V]]
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[OV]], %[[V]]
// CHECK: %[[SM:.*]] = arith.cmpi slt, %[[OI]], %[[I]]
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[SM]]
// CHECK: %[[TAKE:.*]] = arith.ori %[[LT]], %[[TIE]]
// CHECK: arith.select %[[TAKE]], %[[OV]], %[[V]]
// CHECK: arith.select %[[TAKE]], %[[OI]], %[[I]]
cake.kernel @reduce(%x: f32, %k: i32)
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %s = cake.warp_reduce sum %x : f32
  %m = cake.warp_reduce max %x {lanes = 4 : i64} : f32
  %b, %bi = cake.warp_arg_reduce argmin %x, %k : f32, i32
  cake.return
}

// -----

// Padding: rows of 64 + 4 floats (272 bytes); the buffer takes 16 x 272 bytes.
// CHECK-LABEL: gpu.func @padded
// CHECK-DAG: %[[C272:.*]] = arith.constant 272 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: arith.muli %{{.*}}, %[[C272]] : i64
// CHECK-DAG: arith.muli %{{.*}}, %[[C4]] : i64
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
cake.kernel @padded() attributes {target = "sm_80", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c4 = arith.constant 4 : index
  %t = cake.thread_id x
  %s = cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
  %v = cake.load %s[%t, %c4] : !cake.smem<16x64xf32, pad = 4> -> vector<4xf32>
  cake.return
}

// -----

// No kernel: nothing to do, the module is unchanged.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: gpu.module
func.func @untouched() {
  return
}

