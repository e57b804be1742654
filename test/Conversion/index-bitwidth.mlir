// index-bitwidth=32 lowers `index` to i32: a masked access computes its row offset, bounds and
// column in i32 and sign-extends the element offset once, at the address. The default keeps
// i64 arithmetic. The manifest of a 32-bit build says so and bounds every tensor's offsets and
// every grid dimension's threads below 2^30 (index arithmetic up to twice either fits in i32).
// RUN: cake-opt %s --cake-lower-to-nvvm=index-bitwidth=32 | FileCheck %s --check-prefix=I32
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=I64
// RUN: cake-translate %s --emit=manifest --index-bitwidth=32 | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST64 --implicit-check-not=index_bits --implicit-check-not=1073741824
// RUN: cake-translate %s --emit=ptx --index-bitwidth=32 | FileCheck %s --check-prefix=PTX

// I32-LABEL: llvm.func @scale_rows
// I32:      %[[D:.*]] = llvm.trunc %arg3 : i64 to i32
// I32:      %[[ROWOFF:.*]] = llvm.mul %{{.*}}, %[[D]] : i32
// I32:      %[[OFF:.*]] = llvm.add %[[ROWOFF]], %{{.*}} : i32
// I32:      %[[WIDE:.*]] = llvm.sext %[[OFF]] : i32 to i64
// I32:      llvm.getelementptr %arg0[%[[WIDE]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// I32:      llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// I64-LABEL: llvm.func @scale_rows
// I64:      %[[ROWOFF:.*]] = llvm.mul %{{.*}}, %arg3 : i64
// I64:      llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// I64:      llvm.icmp "ult" %{{.*}}, %arg2 : i64

// MANIFEST:      "constraints": [
// MANIFEST-NEXT:   "M * 128 <= 1073741824",
// MANIFEST-NEXT:   "ceildiv(D, 128) <= 1073741824",
// MANIFEST-NEXT:   "M >= 1",
// MANIFEST-NEXT:   "D >= 1",
// MANIFEST-NEXT:   "M * D <= 1073741824"
// MANIFEST-NEXT: ],
// MANIFEST:      "entry": "scale_rows",
// MANIFEST:      "index_bits": 32,
// MANIFEST64:    "entry": "scale_rows",
// PTX:           mul.wide.s32
// PTX-NOT:       mul.lo.s64
cake.kernel @scale_rows(%x: !cake.tensor<[M, D], f32> {cake.name = "x"},
                        %y: !cake.tensor<[M, D], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m, d ceildiv 128)>} {
  %c128 = arith.constant 128 : index
  %row = cake.block_id x
  %by = cake.block_id y
  %t = cake.thread_id x
  %c0 = arith.muli %by, %c128 : index
  %col = arith.addi %c0, %t : index
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, D], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %y[%row, %col] masked : f32, !cake.tensor<[M, D], f32>
  cake.return
}

// A tensor with explicit strides is bounded by its largest offset; a static one within the bound
// adds nothing.
// MANIFEST:      "(M - 1) * (S) + (4 - 1) * (1) < 1073741824"
// MANIFEST-NOT:  "64 * 4
// MANIFEST:      "entry": "strided_rows",
cake.kernel @strided_rows(%x: !cake.tensor<[M, 4], f32, strides [S, 1]> {cake.name = "x"},
                          %t: !cake.tensor<[64, 4], f32> {cake.name = "t"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "S"],
                grid = affine_map<()[m, s] -> (m)>} {
  %c0 = arith.constant 0 : index
  %row = cake.block_id x
  %v = cake.load %x[%row, %c0] masked : !cake.tensor<[M, 4], f32, strides [S, 1]> -> f32
  cake.store %v, %t[%c0, %c0] : f32, !cake.tensor<[64, 4], f32>
  cake.return
}

// With a 32-bit index, a wgmma descriptor's dynamic step (here the warpgroup's row block) is
// widened by an opaque cvt.u64.u32: LLVM would fold a zero-extension and the scaling into
// mul.wide.u32, which ptxas (CUDA 13.0) miscompiles on this path (wrong A rows, measured:
// bench/results/2026-12-04-library-kmeans-9). Constant steps fold as before; a 64-bit index
// needs no widening.
// RUN: cake-opt %s --cake-convert-to-nvvm=index-bitwidth=32 | FileCheck %s --check-prefix=DESC32
// RUN: cake-opt %s --cake-convert-to-nvvm | FileCheck %s --check-prefix=DESC64
// DESC32: gpu.module @cake_kernels {{.*}} attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}
// DESC32-LABEL: gpu.func @wgmma_rows
// DESC32:     %[[ROW:.*]] = arith.index_castui %{{.*}} : index to i32
// DESC32:     llvm.inline_asm "cvt.u64.u32 $0, $1;", "=l,r" %[[ROW]] : (i32) -> i64
// DESC32-NOT: llvm.inline_asm
// DESC32:     nvvm.wgmma.mma_async
// DESC64-NOT: dlti.dl_spec
// DESC64-NOT: llvm.inline_asm "cvt.u64.u32
cake.kernel @wgmma_rows() attributes {target = "sm_90a", block = array<i64: 256>,
                                      grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<16x32xbf16, swizzle = 64>
  %wg = cake.warpgroup_id
  %row = arith.muli %wg, %c64 : index
  %acc = arith.constant dense<1.0> : vector<8xf32>
  cake.wgmma.fence
  %d = cake.wgmma %a[%row, %c16], %b[%c0, %c16], %acc
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<16x32xbf16, swizzle = 64>, vector<8xf32>
  cake.wgmma.commit
  cake.wgmma.wait 0
  cake.return
}
