//===- CakeAmpereOps.td - cp.async, ldmatrix/stmatrix, mma.sync -*- tablegen -*-===//
//
// The Ampere path (sm_80+; stmatrix sm_90+): asynchronous global -> shared copies with zero-fill,
// warp-cooperative 8x8 matrix loads/stores of shared memory, and the warp-level tensor-core
// multiply-accumulate mma.sync with its accumulator-fragment store.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_IR_CAKEAMPEREOPS_TD
#define CAKE_IR_CAKEAMPEREOPS_TD

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

def Cake_CpAsyncOp : Cake_Op<"cp_async", [CakeRequires<"CpAsync">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, AttrSizedOperandSegments]> {
  let summary = "an asynchronous copy of 4, 8 or 16 bytes from global to shared memory (sm_80+)";
  let description = [{
    Each executing thread copies `bytes` (4, 8 or 16) consecutive bytes of the innermost dimension
    of the global tensor `source`, starting at `source_indices`, to the shared buffer `dest` at
    `dest_indices` (logical indices: the buffer's swizzle is applied to the address). Both
    addresses must be aligned to `bytes`: the indices the kernel computes must make it so, and the
    manifest records the row-stride divisibility the global side needs (e.g. `mod(K, 8) == 0` for
    16-byte copies of bf16 rows). The destination's innermost extent must be a whole number of
    copies. 16-byte copies bypass L1 (`cp.async.cg`), smaller ones do not (`cp.async.ca`).

    With `masked`, the copy reads only the elements inside the tensor's extents and zero-fills the
    rest of the destination through cp.async's `src-size` operand: a row past an outer extent
    reads nothing and writes zeros, a copy straddling the innermost extent reads its in-bounds
    prefix. Ragged tiles therefore need no branch.

    With `if %pred` (an `i1` the kernel computed), the copy reads nothing and zero-fills its
    destination where `%pred` is false; with `masked` as well, it reads only where both allow.
    One predicate serves many copies (a column test shared by a thread's rows, for example), where
    `masked` tests every copy's indices against every extent.

    The copies are asynchronous: group them with `cake.cp_async.commit` and wait with
    `cake.cp_async.wait` (which only covers the executing thread's copies; a `cake.barrier`
    afterwards makes all threads' data visible to the block).

    ```mlir
    cake.cp_async %a[%row, %k], %abuf[%slot, %r, %c], bytes 16 masked
        : !cake.tensor<[M, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %x[%offset], %xbuf[%slot, %r, %c], bytes 4 if %inside
        : !cake.tensor<[BND], f32>, !cake.smem<4x64x32xf32, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_TensorType:$source, Variadic<Index>:$source_indices,
                       Cake_SmemType:$dest, Variadic<Index>:$dest_indices, I64Attr:$bytes,
                       UnitAttr:$masked, Optional<I1>:$pred);
  let assemblyFormat = [{
    $source `[` $source_indices `]` `,` $dest `[` $dest_indices `]` `,` `bytes` $bytes
    (`masked` $masked^)? (`if` $pred^)? attr-dict `:` qualified(type($source)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Elements one copy moves.
    int64_t getWidth();
  }];
}

def Cake_CpAsyncCommitOp : Cake_Op<"cp_async.commit", [CakeRequires<"CpAsync">, Cake_InKernel]> {
  let summary = "closes the thread's pending cp.async copies into a group (cp.async.commit_group)";
  let description = [{
    Every `cake.cp_async` the thread issued since the previous commit joins one new group; an
    empty group is legal (commit every pipeline step, so group counts stay uniform).

    ```mlir
    cake.cp_async.commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_CpAsyncWaitOp : Cake_Op<"cp_async.wait", [CakeRequires<"CpAsync">, Cake_InKernel]> {
  let summary = "waits until at most `pending` cp.async groups remain in flight (cp.async.wait_group)";
  let description = [{
    Blocks the executing thread until all but the `pending` (0 to 63) most recent groups of its
    own cp.async copies have completed. In a ring of S stages with one commit per step, `pending`
    = S - 2 guarantees the oldest stage has landed; follow with `cake.barrier` before other
    threads read it.

    ```mlir
    cake.cp_async.wait 2
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

/// A warp fragment of 1, 2 or 4 8x8 matrices: 1, 2 or 4 32-bit registers per lane.
def Cake_MatrixFragmentType : VectorOfRankAndType<[1], [I32, F16, BF16, F32]>;

def Cake_LdmatrixOp : Cake_Op<"ldmatrix", [CakeRequires<"Ldmatrix">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, MemoryEffects<[MemRead]>]> {
  let summary = "a warp-cooperative load of 1, 2 or 4 8x8 b16 matrices from shared memory (sm_80+)";
  let description = [{
    `ldmatrix.sync.aligned.m8n8.xN.shared.b16`: the warp loads N = 1, 2 or 4 matrices of 8 rows
    x 16 bytes (8 f16/bf16 elements; 4 f32 elements when used for tf32) from the shared buffer.
    N follows from the result: N 32-bit registers per lane, typed either as `vector<Nxi32>` or as
    the buffer's element type (`vector<2Nxbf16>`, `vector<Nxf32>`); element `2j` of a 16-bit
    result is the low half of register `j`.

    **Addresses (lane -> row).** Every lane passes the logical indices of one row (its first
    element); the lowering applies the buffer's swizzle. Lane `l` provides row `l mod 8` of matrix
    `l div 8`: lanes 0-7 the rows of matrix 0, lanes 8-15 matrix 1, 16-23 matrix 2, 24-31
    matrix 3. With N = 1 only lanes 0-7 matter, with N = 2 lanes 0-15 (the others must still pass
    in-buffer indices). Each row address must be 16-byte aligned (the column index a multiple of 8
    for 16-bit elements).

    **Result (register -> elements).** Register `j` of every lane holds part of matrix `j`: lane
    `t` gets row `t div 4`, columns `2 (t mod 4)` and `2 (t mod 4) + 1` (16-bit units). With
    `trans` (16-bit elements only) each matrix is delivered transposed: lane `t` gets rows
    `2 (t mod 4)` and `2 (t mod 4) + 1` of column `t div 4`.

    So for a K-major m16n8k16 A tile at rows r0.., columns k0.., lane `l` passes
    `[r0 + 8 ((l div 8) mod 2) + l mod 8, k0 + 8 (l div 16)]` and the four registers are the
    A fragment in `mma.sync` order; for a K-major (`[N, K]`) B tile covering n0..n0+15,
    `[n0 + 8 (l div 16) + l mod 8, k0 + 8 ((l div 8) mod 2)]` gives the B fragments of columns
    n0.. (registers 0-1) and n0 + 8.. (registers 2-3).

    ```mlir
    %a = cake.ldmatrix %abuf[%slot, %row, %col] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
    %t = cake.ldmatrix %vbuf[%row, %col] trans : !cake.smem<64x64xf16> -> vector<4xi32>
    ```
  }];
  let arguments = (ins Cake_SmemType:$source, Variadic<Index>:$indices, UnitAttr:$trans);
  let results = (outs Cake_MatrixFragmentType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` (`trans` $trans^)? attr-dict `:` qualified(type($source)) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Matrices moved (1, 2 or 4): the number of 32-bit registers per lane.
    int64_t getCount();
  }];
}

def Cake_StmatrixOp : Cake_Op<"stmatrix", [CakeRequires<"Stmatrix">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, MemoryEffects<[MemWrite]>]> {
  let summary = "a warp-cooperative store of 1, 2 or 4 8x8 b16 matrices to shared memory (sm_90+)";
  let description = [{
    `stmatrix.sync.aligned.m8n8.xN.shared.b16`, the inverse of `cake.ldmatrix` with the same
    lane mappings: register `j` of lane `t` holds row `t div 4`, columns `2 (t mod 4)` and
    `2 (t mod 4) + 1` of matrix `j` (transposed with `trans`), and lane `l` passes the logical
    indices of row `l mod 8` of matrix `l div 8`; the lowering applies the buffer's swizzle.
    Only 16-bit element buffers.

    ```mlir
    cake.stmatrix %v, %cbuf[%row, %col] : vector<8xbf16>, !cake.smem<128x128xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_MatrixFragmentType:$value, Cake_SmemType:$dest,
                       Variadic<Index>:$indices, UnitAttr:$trans);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` (`trans` $trans^)? attr-dict `:` type($value) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getCount();
  }];
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

def Cake_MmaAccumulatorType : VectorOfLengthAndType<[4], [F32]> {
  let builderCall = "::mlir::VectorType::get({4}, $_builder.getF32Type())";
}

def Cake_MmaSyncOp : Cake_Op<"mma_sync", [CakeRequires<"MmaSync">, Cake_InKernel, Pure,
    TypesMatchWith<"result has the accumulator type", "acc", "result", "$_self">]> {
  let summary = "a warp-level tensor-core multiply-accumulate, m16n8k16 f16/bf16 or m16n8k8 tf32";
  let description = [{
    `result = A * B + acc` for one 16x8 tile of f32 accumulators, computed by the whole warp
    (`mma.sync.aligned.row.col`, sm_80+). The operands' element type picks the instruction:

    | A | B | shape | PTX types |
    |---|---|---|---|
    | `vector<8xbf16>` | `vector<4xbf16>` | m16n8k16 | `.f32.bf16.bf16.f32` |
    | `vector<8xf16>`  | `vector<4xf16>`  | m16n8k16 | `.f32.f16.f16.f32` |
    | `vector<4xf32>`  | `vector<2xf32>`  | m16n8k8  | `.f32.tf32.tf32.f32` (f32 bits read as tf32) |

    Fragments (lane `t`, g = `t div 4`, q = `t mod 4`; A is MxK row-major, B is KxN "col", i.e.
    stored as `[N, K]` with K innermost):

    - m16n8k16 A (elements 0-7): (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1), (g, 2q+8),
      (g, 2q+9), (g+8, 2q+8), (g+8, 2q+9) as (row m, column k);
    - m16n8k16 B (elements 0-3): (k, n) = (2q, g), (2q+1, g), (2q+8, g), (2q+9, g);
    - m16n8k8 tf32 A (0-3): (g, q), (g+8, q), (g, q+4), (g+8, q+4); B (0-1): (q, g), (q+4, g);
    - accumulator (0-3): (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1) as (row m, column n).

    `cake.ldmatrix` x4 / x2 of K-major shared tiles delivers exactly these fragments (see its
    lane mapping); `cake.mma_sync.store` writes the accumulator tile.

    ```mlir
    %d = cake.mma_sync %a, %b, %acc : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
    ```
  }];
  let arguments = (ins Cake_MmaAccumulatorType:$acc, VectorOfRankAndType<[1], [F16, BF16, F32]>:$a,
                       VectorOfRankAndType<[1], [F16, BF16, F32]>:$b);
  let results = (outs Cake_MmaAccumulatorType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Cake_MmaSyncStoreOp : Cake_Op<"mma_sync.store", [DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel]> {
  let summary = "stores a warp's 16x8 mma.sync accumulator tile to a global tensor";
  let description = [{
    Writes the warp's f32 accumulator fragment (`vector<4xf32>` per lane, the layout of
    `cake.mma_sync`) as the 16x8 tile of the rank-2 tensor `dest` whose top-left element is at
    [`row`, `col`]: lane `t` stores elements 0-1 at (`row + t div 4`, `col + 2 (t mod 4)` and
    `+ 1`) and elements 2-3 eight rows below, converted to the tensor's element type (f32, bf16
    or f16). With `masked`, elements outside the tensor are skipped (pair stores are used when a
    pair is in bounds and aligned, so odd row strides work).

    ```mlir
    cake.mma_sync.store %acc, %c[%m0, %n0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
    ```
  }];
  let arguments = (ins Cake_MmaAccumulatorType:$acc, Cake_TensorType:$dest, Index:$row,
                       Index:$col, UnitAttr:$masked);
  let assemblyFormat = [{
    $acc `,` $dest `[` $row `,` $col `]` (`masked` $masked^)? attr-dict `:` type($acc) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_IR_CAKEAMPEREOPS_TD
