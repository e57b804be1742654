// RUN: cake-opt %s --cake-convert-to-nvvm -split-input-file | FileCheck %s

// The Ampere-path ops: cp.async (zero-fill through src-size), commit/wait groups, ldmatrix and
// stmatrix (per-lane swizzled row addresses), mma.sync (typed fragments -> the registers
// nvvm.mma.sync takes) and the accumulator store (the m16n8 lane -> element mapping).

// A masked 16-byte copy of bf16 A[r, k] into a 64-byte-swizzled buffer at [r, k]:
// destination byte offset 64 r + 2 k, XOR ((offset >> 7) & 3) << 4;
// source A + (r * K + k); src-size = 2 * min(K - k, 8) when r < M and k < K, else 0 (and then the
// tensor's base address). 16 bytes: .cg; 8 bytes: .ca, no src-size when not masked.
// CHECK-LABEL: gpu.func @cp
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr<1>, %[[M:.*]]: i64, %[[K:.*]]: i64)
// CHECK: %[[R:.*]] = gpu.thread_id x
// CHECK: %[[KI:.*]] = gpu.block_id x
// CHECK: %[[BUF:.*]] = llvm.getelementptr
// CHECK: %[[KB:.*]] = arith.index_cast %[[KI]] : index to i64
// CHECK: %[[KB2:.*]] = arith.muli %[[KB]], %{{.*}} : i64
// CHECK: %[[RB:.*]] = arith.index_cast %[[R]] : index to i64
// CHECK: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: %[[RB2:.*]] = arith.muli %[[RB]], %[[C64]] : i64
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[RB2]] : i64
// CHECK: %[[C7:.*]] = arith.constant 7 : i64
// CHECK: %[[ROW:.*]] = arith.shrui %[[OFF]], %[[C7]] : i64
// CHECK: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: %[[BITS:.*]] = arith.andi %[[ROW]], %[[C3]] : i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[MASK:.*]] = arith.shli %[[BITS]], %[[C4]] : i64
// CHECK: %[[SW:.*]] = arith.xori %[[OFF]], %[[MASK]] : i64
// CHECK: %[[DST:.*]] = llvm.getelementptr %[[BUF]][%[[SW]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// Global offsets and bounds are index arithmetic (the lowering's index width), sign-extended to
// i64 once, at the address.
// CHECK: %[[KS:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK: %[[RK:.*]] = arith.muli %[[R]], %[[KS]] : index
// CHECK: %[[SOFF:.*]] = arith.addi %[[RK]], %[[KI]] : index
// CHECK: %[[SOFF64:.*]] = arith.index_cast %[[SOFF]] : index to i64
// CHECK: %[[SRC:.*]] = llvm.getelementptr %[[A]][%[[SOFF64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK: %[[MS:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %[[R]], %[[MS]] : index
// CHECK: %[[KS2:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK: %[[KOK:.*]] = arith.cmpi ult, %[[KI]], %[[KS2]] : index
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[KOK]] : i1
// CHECK: %[[REM:.*]] = arith.subi %[[KS2]], %[[KI]] : index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[CNT:.*]] = arith.minui %[[REM]], %[[C8]] : index
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[CNT2:.*]] = arith.select %[[OK]], %[[CNT]], %[[Z]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[CNT2]], %[[C2]] : index
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK: %[[SRC2:.*]] = arith.select %[[OK]], %[[SRC]], %[[A]] : !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %[[DST]], %[[SRC2]], 16, cache =  cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 3
// CHECK-NOT: cake.
// CHECK: gpu.return
cake.kernel @cp(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (1)>} {
  %r = cake.thread_id x
  %k = cake.block_id x
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16, swizzle = 64>
  cake.cp_async %a[%r, %k], %buf[%r, %k], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16, swizzle = 64>
  cake.cp_async %a[%r, %k], %buf[%r, %k], bytes 8 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16, swizzle = 64>
  cake.cp_async.commit
  cake.cp_async.wait 3
  cake.return
}

// -----

// `if %pred`: src-size = pred ? 4 : 0 and the tensor's base when false (no bounds tests); with
// `masked` as well, the bounds' src-size where pred holds, else 0.
// CHECK-LABEL: gpu.func @cp_pred
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %{{.*}}: i64)
// CHECK: %[[P:.*]] = arith.cmpi ult
// CHECK: %[[SRC:.*]] = llvm.getelementptr %[[X]]
// CHECK-NOT: arith.cmpi
// CHECK: %[[FULL:.*]] = arith.constant 4 : i32
// CHECK: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[SIZE:.*]] = arith.select %[[P]], %[[FULL]], %[[NONE]] : i32
// CHECK: %[[SRC2:.*]] = arith.select %[[P]], %[[SRC]], %[[X]] : !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %[[SRC2]], 4, cache =  ca, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[MSIZE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[MSRC:.*]] = arith.select %[[OK]], %{{.*}}, %[[X]] : !llvm.ptr<1>
// CHECK: %[[NONE2:.*]] = arith.constant 0 : i32
// CHECK: %[[SIZE2:.*]] = arith.select %[[P]], %[[MSIZE]], %[[NONE2]] : i32
// CHECK: %[[SRC3:.*]] = arith.select %[[P]], %[[MSRC]], %[[X]] : !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %[[SRC3]], 4, cache =  ca, %[[SIZE2]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
cake.kernel @cp_pred(%x: !cake.tensor<[BND], f32>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["BND"], grid = affine_map<()[n] -> (1)>} {
  %i = cake.thread_id x
  %c40 = arith.constant 40 : index
  %p = arith.cmpi ult, %i, %c40 : index
  %buf = cake.alloc_smem : !cake.smem<4x32xf32>
  %c0 = arith.constant 0 : index
  cake.cp_async %x[%i], %buf[%c0, %c0], bytes 4 if %p : !cake.tensor<[BND], f32>, !cake.smem<4x32xf32>
  cake.cp_async %x[%i], %buf[%c0, %c0], bytes 4 masked if %p : !cake.tensor<[BND], f32>, !cake.smem<4x32xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}

// -----

// ldmatrix: each lane's own indices [lane, 8] -> byte offset 16 + 128 lane, 128-byte swizzle
// ((offset >> 7) & 7) << 4; x4 -> 4 registers -> vector<4xi32> -> bitcast to the typed fragment
// (element 2j = low half of register j); trans -> layout col. mma.sync bf16: the fragments bitcast
// back to i32 registers, m16n8k16 row.col, f32 accumulators in and out.
// CHECK-LABEL: gpu.func @frag
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: %[[LB:.*]] = arith.index_cast %[[LANE]] : index to i64
// CHECK: %[[C128:.*]] = arith.constant 128 : i64
// CHECK: %[[LOFF:.*]] = arith.muli %[[LB]], %[[C128]] : i64
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[LOFF]] : i64
// CHECK: %[[ROW:.*]] = arith.shrui %[[OFF]], %{{.*}} : i64
// CHECK: %[[C7:.*]] = arith.constant 7 : i64
// CHECK: %[[BITS:.*]] = arith.andi %[[ROW]], %[[C7]] : i64
// CHECK: %[[MASK:.*]] = arith.shli %[[BITS]], %{{.*}} : i64
// CHECK: %[[SW:.*]] = arith.xori %[[OFF]], %[[MASK]] : i64
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[SW]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[LD:.*]] = nvvm.ldmatrix %[[ADDR]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[LD]][0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[LD]][1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %[[LD]][2]
// CHECK: %[[R3:.*]] = llvm.extractvalue %[[LD]][3]
// CHECK: %[[REGS:.*]] = vector.from_elements %[[R0]], %[[R1]], %[[R2]], %[[R3]] : vector<4xi32>
// CHECK: %[[FA:.*]] = llvm.bitcast %[[REGS]] : vector<4xi32> to vector<8xbf16>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: %[[FB:.*]] = llvm.bitcast %{{.*}} : vector<2xi32> to vector<4xbf16>
// CHECK: %[[AI:.*]] = llvm.bitcast %[[FA]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[A0:.*]] = vector.extract %[[AI]][0] : i32 from vector<4xi32>
// CHECK: %[[A1:.*]] = vector.extract %[[AI]][1] : i32 from vector<4xi32>
// CHECK: %[[A2:.*]] = vector.extract %[[AI]][2] : i32 from vector<4xi32>
// CHECK: %[[A3:.*]] = vector.extract %[[AI]][3] : i32 from vector<4xi32>
// CHECK: %[[BI:.*]] = llvm.bitcast %[[FB]] : vector<4xbf16> to vector<2xi32>
// CHECK: %[[B0:.*]] = vector.extract %[[BI]][0] : i32 from vector<2xi32>
// CHECK: %[[B1:.*]] = vector.extract %[[BI]][1] : i32 from vector<2xi32>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[D1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[D2:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: vector.from_elements %[[D0]], %[[D1]], %[[D2]], %[[D3]] : vector<4xf32>
// f16: pairs of halves; tf32: f32 bits as i32, m16n8k8.
// CHECK: %[[H:.*]] = vector.extract %{{.*}}[0] : i32 from vector<4xi32>
// CHECK: llvm.bitcast %[[H]] : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: llvm.bitcast %{{.*}} : vector<2xf32> to vector<2xi32>
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: cake.
// CHECK: gpu.return
cake.kernel @frag() attributes {target = "sm_80", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %r = cake.lane_id
  %c8 = arith.constant 8 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %fa = cake.ldmatrix %buf[%r, %c8] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
  %fb = cake.ldmatrix %buf[%r, %c8] trans : !cake.smem<64x64xbf16, swizzle = 128> -> vector<4xbf16>
  %acc = arith.constant dense<0.0> : vector<4xf32>
  %d = cake.mma_sync %fa, %fb, %acc : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
  %ha = vector.bitcast %fa : vector<8xbf16> to vector<8xf16>
  %hb = vector.bitcast %fb : vector<4xbf16> to vector<4xf16>
  %e = cake.mma_sync %ha, %hb, %d : vector<8xf16>, vector<4xf16>, vector<4xf32>
  %ta = arith.constant dense<1.0> : vector<4xf32>
  %tb = arith.constant dense<2.0> : vector<2xf32>
  %f = cake.mma_sync %ta, %tb, %e : vector<4xf32>, vector<2xf32>, vector<4xf32>
  cake.return
}

// -----

// The accumulator store: lane t = tid mod 32 stores elements 0-1 at (row + t / 4, col + 2 (t mod 4))
// and elements 2-3 eight rows below, as 8-byte pair stores (unmasked).
// CHECK-LABEL: gpu.func @store
// CHECK-SAME: (%[[C:.*]]: !llvm.ptr<1>, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[ROW:.*]] = gpu.block_id x
// CHECK: %[[COL:.*]] = gpu.block_id y
// CHECK: %[[ACC:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %[[C4]] : index
// CHECK: %[[C4B:.*]] = arith.constant 4 : index
// CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %[[C4B]] : index
// CHECK: %[[R0:.*]] = arith.addi %[[ROW]], %[[G]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[Q2:.*]] = arith.muli %[[Q]], %[[C2]] : index
// CHECK: %[[COL0:.*]] = arith.addi %[[COL]], %[[Q2]] : index
// CHECK: %[[E0:.*]] = vector.extract %[[ACC]][0] : f32 from vector<4xf32>
// CHECK: %[[E1:.*]] = vector.extract %[[ACC]][1] : f32 from vector<4xf32>
// CHECK: %[[P0:.*]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK: %[[RS:.*]] = arith.muli %[[R0]], %{{.*}} : index
// CHECK: %[[O0:.*]] = arith.addi %[[RS]], %[[COL0]] : index
// CHECK: %[[O064:.*]] = arith.index_cast %[[O0]] : index to i64
// CHECK: %[[AD0:.*]] = llvm.getelementptr %[[C]][%[[O064]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.store %[[P0]], %[[AD0]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[R8:.*]] = arith.addi %[[R0]], %[[C8]] : index
// CHECK: %[[E2:.*]] = vector.extract %[[ACC]][2] : f32 from vector<4xf32>
// CHECK: %[[E3:.*]] = vector.extract %[[ACC]][3] : f32 from vector<4xf32>
// CHECK: %[[P1:.*]] = vector.from_elements %[[E2]], %[[E3]] : vector<2xf32>
// CHECK: %[[RS1:.*]] = arith.muli %[[R8]], %{{.*}} : index
// CHECK: %[[O1:.*]] = arith.addi %[[RS1]], %[[COL0]] : index
// CHECK: %[[O164:.*]] = arith.index_cast %[[O1]] : index to i64
// CHECK: %[[AD1:.*]] = llvm.getelementptr %[[C]][%[[O164]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.store %[[P1]], %[[AD1]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NEXT: gpu.return
cake.kernel @store(%c: !cake.tensor<[M, N], f32>) attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %r = cake.block_id x
  %col = cake.block_id y
  %acc = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  cake.mma_sync.store %acc, %c[%r, %col] : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Masked into bf16: truncation, then the pair store only when in bounds and 2-element aligned,
// else element by element.
// CHECK-LABEL: gpu.func @store_masked
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// CHECK: arith.remui %{{.*}}, %{{.*}} : i64
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
cake.kernel @store_masked(%c: !cake.tensor<[M, N], bf16>) attributes {target = "sm_80", block = array<i64: 32>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %r = cake.block_id x
  %acc = arith.constant dense<1.0> : vector<4xf32>
  cake.mma_sync.store %acc, %c[%r, %r] masked : vector<4xf32>, !cake.tensor<[M, N], bf16>
  cake.return
}

// -----

// stmatrix (sm_90): the fragment's registers as i32 operands, the lane's swizzled row address.
// CHECK-LABEL: gpu.func @st
// CHECK: %[[SW:.*]] = arith.xori
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[SW]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[REGS:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: %[[S0:.*]] = vector.extract %[[REGS]][0]
// CHECK: %[[S1:.*]] = vector.extract %[[REGS]][1]
// CHECK: %[[S2:.*]] = vector.extract %[[REGS]][2]
// CHECK: %[[S3:.*]] = vector.extract %[[REGS]][3]
// CHECK: nvvm.stmatrix %[[ADDR]], %[[S0]], %[[S1]], %[[S2]], %[[S3]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32
cake.kernel @st() attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %l = cake.lane_id
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %v = arith.constant dense<1.0> : vector<8xbf16>
  cake.stmatrix %v, %buf[%l, %c0] : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
  %w = arith.constant dense<0> : vector<2xi32>
  cake.stmatrix %w, %buf[%l, %c0] trans : vector<2xi32>, !cake.smem<64x64xbf16, swizzle = 128>
  cake.return
}
