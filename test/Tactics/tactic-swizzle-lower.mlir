// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=PLAIN
// RUN: cake-opt %s --cake-tactic-swizzle=bytes=128 | cake-opt --cake-lower-to-nvvm | FileCheck %s --check-prefix=S128
// RUN: cake-opt %s --cake-tactic-swizzle=bytes=32 | cake-opt --cake-lower-to-nvvm | FileCheck %s --check-prefix=S32

// The retyped buffer's accesses get the XOR in their address arithmetic (ConversionUtils.h,
// AccessBuilder::smemAddress): byte offset o -> o ^ (((o >> 7) & (bytes / 16 - 1)) << 4), the
// same for the scalar store and the vector store, so both see one permutation of the buffer.
// PLAIN-NOT: llvm.xor

// S128-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i64) : i64
// S128-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i64) : i64
// S128: %[[OFF:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
// S128-NEXT: %[[ROW:.*]] = llvm.lshr %[[OFF]], %[[C7]] : i64
// S128-NEXT: %[[BITS:.*]] = llvm.and %[[ROW]], %[[C7]] : i64
// S128-NEXT: %[[MASK:.*]] = llvm.shl %[[BITS]], %[[C4]] : i64
// S128-NEXT: %[[SW:.*]] = llvm.xor %[[OFF]], %[[MASK]] : i64
// S128-NEXT: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[SW]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// S128-NEXT: llvm.store %{{.*}}, %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// S128: %[[OFF2:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
// S128-NEXT: %[[ROW2:.*]] = llvm.lshr %[[OFF2]], %[[C7]] : i64
// S128-NEXT: %[[BITS2:.*]] = llvm.and %[[ROW2]], %[[C7]] : i64
// S128-NEXT: %[[MASK2:.*]] = llvm.shl %[[BITS2]], %[[C4]] : i64
// S128-NEXT: %[[SW2:.*]] = llvm.xor %[[OFF2]], %[[MASK2]] : i64
// S128-NEXT: %[[P2:.*]] = llvm.getelementptr %{{.*}}[%[[SW2]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// S128-NEXT: llvm.store %{{.*}}, %[[P2]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>

// 32 bytes: only bit 4 (the chunk's parity) flips, with bit 7 (mask 1).
// S32-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i64) : i64
// S32-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// S32: %[[ROW:.*]] = llvm.lshr %[[OFF:.*]], %[[C7]] : i64
// S32-NEXT: %[[BITS:.*]] = llvm.and %[[ROW]], %[[C1]] : i64
// S32-NEXT: %[[MASK:.*]] = llvm.shl %[[BITS]], %{{.*}} : i64
// S32-NEXT: llvm.xor %[[OFF]], %[[MASK]] : i64
cake.kernel @lower() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  %z = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %row = arith.divui %tid, %c16 : index
  %lane = arith.remui %tid, %c16 : index
  %col4 = arith.muli %lane, %c4 : index
  %tile = cake.alloc_smem : !cake.smem<16x64xf32>
  cake.store %f, %tile[%lane, %row] : f32, !cake.smem<16x64xf32>
  cake.store %z, %tile[%row, %col4] : vector<4xf32>, !cake.smem<16x64xf32>
  cake.return
}
