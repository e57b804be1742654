//===- CakeOps.td - cake operations ------------------------*- tablegen -*-===//
#ifndef CAKE_IR_CAKEOPS_TD
#define CAKE_IR_CAKEOPS_TD

include "Cake/IR/CakeDialect.td"
include "Cake/IR/CakeTypes.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributes.td"
include "Cake/IR/CakeInterfaces.td"

// An op whose accesses are declared here (CakeAccess of CakeInterfaces.td): its
// getMemoryAccesses is generated, so a new memory op of this kind needs no C++ for them.
class Cake_MemoryAccessOp<string mnemonic, list<CakeAccessSpec> accesses, list<Trait> traits = []>
    : Cake_Op<mnemonic, !listconcat([DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>],
                                    traits)> {
  let extraClassDefinition = "void $cppClass::getMemoryAccesses(\n" #
      "    ::llvm::SmallVectorImpl<::mlir::cake::MemoryAccess> &accesses) {\n" #
      !interleave(!foreach(a, accesses, "  accesses.push_back(" # a.build # ");\n"), "") # "}\n";
}

/// Verifies that the op is nested in a cake.kernel.
def Cake_InKernel : NativeOpTrait<"InKernel"> {
  let cppNamespace = "::mlir::cake";
}

def Cake_ScalarType : AnyTypeOf<[I32, I64, F32, F64]>;
def Cake_ElementType : AnyTypeOf<[I8, I32, I64, F16, BF16, F32, F64]>;
def Cake_MemoryType : AnyTypeOf<[Cake_TensorType, Cake_SmemType]>;
/// A register value: one element or a 1-D vector of elements.
def Cake_RegisterType : AnyTypeOf<[Cake_ElementType, VectorOfRankAndType<[1], [I8, I32, I64, F16, BF16, F32, F64]>]>;

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

def Cake_KernelOp : Cake_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, Symbol, SingleBlock,
    DeclareOpInterfaceMethods<CakeTargetRequirementOpInterface>]> {
  let summary = "a GPU kernel with a static block size and symbolic problem sizes";
  let description = [{
    One GPU entry point. Its name is the PTX entry and the manifest's `entry`, so it must be a PTX
    identifier (a letter, `_` or `$`, then letters, digits, `_` and `$`). Its parameters are global
    tensors (`!cake.tensor`) and scalars (`i32`, `i64`, `f32`, `f64`). The attributes make the
    launch explicit and checkable:

    - `target`: `"sm_80"`, `"sm_90"`, `"sm_90a"` or `"sm_100a"`;
    - `block`: the static block size, 1 to 3 extents, at most 1024 threads, a whole number of warps;
    - `cluster` (optional): the cluster size, 1 to 3 extents (sm_90 and later), at most 8 blocks;
    - `symbols`: the problem-size symbols the tensor types and `cake.problem_size` refer to; the
      host passes each as an `i64` after the parameters, so one kernel serves many shapes;
    - `grid`: an affine map with no dimensions and one symbol per entry of `symbols`, giving the grid
      extents (1 to 3 results) as a function of the problem sizes; constant divisors (`ceildiv`,
      `floordiv`, `mod`) are positive and constant extents within CUDA's limits (2^31 - 1 blocks
      in x, 65535 in y and z);
    - `dynamic_smem` (optional, default 0): dynamic shared-memory bytes requested at launch;
    - `min_blocks_per_sm` (optional): the occupancy the kernel asks for, 1 to 32 blocks resident per
      SM at once (CUDA's `__launch_bounds__` second argument, PTX `.minnctapersm`): ptxas caps the
      registers per thread to fit. The blocks' threads must fit in an SM (2048), a kernel with
      register budgets on its warp roles runs one block per SM, and `--cake-verify-smem` checks
      that that many blocks' shared memory fits (`smem.occupancy`);
    - `index_bitwidth` (optional, default 64): the width `index` is lowered to, 64 or 32. With 32,
      address arithmetic takes one 32-bit multiply-add per term, and the manifest bounds every
      tensor's offsets and every grid dimension's threads below 2^30 (docs/Manifest.md), so hosts
      refuse larger shapes. The kernels of one module share one width; a tool's
      `--index-bitwidth` overrides it.
    - `specialize` (optional): problem-size symbols fixed at compile time, as a dictionary from
      symbol to a non-negative integer (`specialize = {D = 53}`). The ABI does not change: the
      host still passes every symbol, and the manifest gains the constraint `D == 53`, so no host
      launches the kernel at another size. The lowering reads the constant instead of the
      parameter (`cake.problem_size`, the tensors' strides and bounds), so loop bounds, masks and
      address products fold; the schedule verifiers probe the kernel at that size only. This is
      what a JIT that makes sizes compile-time constants (Triton's `tl.constexpr`) does, per
      kernel; `cake-translate --specialize=D=53` sets it from the command line.

    ```mlir
    cake.kernel @vector_add(%x: !cake.tensor<[N], f32>, %y: !cake.tensor<[N], f32>,
                            %z: !cake.tensor<[N], f32>)
        attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                    grid = affine_map<()[n] -> (n ceildiv 1024)>} {
      ...
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs,
    StrAttr:$target,
    DenseI64ArrayAttr:$block,
    OptionalAttr<DenseI64ArrayAttr>:$cluster,
    DefaultValuedAttr<StrArrayAttr, "{}">:$symbols,
    AffineMapAttr:$grid,
    DefaultValuedAttr<I64Attr, "0">:$dynamic_smem,
    OptionalAttr<I64Attr>:$min_blocks_per_sm,
    OptionalAttr<I64Attr>:$index_bitwidth,
    OptionalAttr<DictionaryAttr>:$specialize
  );
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
      "::llvm::StringRef":$target, "::llvm::ArrayRef<int64_t>":$block,
      "::llvm::ArrayRef<::llvm::StringRef>":$symbols, "::mlir::AffineMap":$grid)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }

    /// Total threads per block.
    int64_t getNumThreads();
    /// Block extents padded to 3 dimensions.
    ::llvm::SmallVector<int64_t, 3> getBlockDims();
    /// Cluster extents padded to 3 dimensions ({1,1,1} without a cluster).
    ::llvm::SmallVector<int64_t, 3> getClusterDims();
    /// Position of `name` in `symbols`, or std::nullopt.
    std::optional<unsigned> getSymbolIndex(::llvm::StringRef name);
    /// Whether the kernel has a `cake.grid_dependency.wait` (its manifest's programmatic_launch).
    bool waitsForGridDependencies();
    /// The names of `symbols` as strings.
    ::llvm::SmallVector<::llvm::StringRef> getSymbolNames();
    /// The compile-time value `specialize` gives symbol `name`, or std::nullopt.
    std::optional<int64_t> getSpecializedSize(::llvm::StringRef name);
    /// Lays out the kernel's shared allocations in program order, each at its alignment.
    SharedMemoryLayout getSharedMemoryLayout();
    /// The most shared memory one block may use on this kernel's target.
    int64_t getMaxSharedBytes();
    /// The index of the parameter named `name` (by `cake.name`), or std::nullopt.
    std::optional<unsigned> getParameterIndex(::llvm::StringRef name);
    /// Checks a !cake.tma parameter against the tensor parameter it describes.
    ::llvm::LogicalResult verifyTmaParameter(unsigned index, TmaType tma);
  }];
}

def Cake_ReturnOp : Cake_Op<"return", [Pure, HasParent<"KernelOp">, Terminator, ReturnLike]> {
  let summary = "ends a kernel";
  let description = [{
    The terminator of a `cake.kernel` body.

    ```mlir
    cake.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_ProblemSizeOp : Cake_Op<"problem_size", [Cake_InKernel, Pure]> {
  let summary = "the runtime value of a problem-size symbol";
  let description = [{
    Reads one of the enclosing kernel's `symbols` as an `index`. The host passes problem sizes as
    kernel parameters, so the same kernel serves every shape its constraints allow.

    ```mlir
    %n = cake.problem_size "N"
    ```
  }];
  let arguments = (ins StrAttr:$symbol);
  let results = (outs Index:$result);
  let assemblyFormat = "$symbol attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ids and dims
//===----------------------------------------------------------------------===//

class Cake_DimIdOp<string mnemonic, string what, list<Trait> traits = []>
    : Cake_Op<mnemonic, !listconcat([Cake_InKernel, Pure], traits)> {
  let summary = what;
  let description = "Returns " # what # " along the given dimension as an `index`."
      # [{

    ```mlir
    %tx = cake.thread_id x
    ```
  }];
  let arguments = (ins Cake_DimAttr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def Cake_ThreadIdOp : Cake_DimIdOp<"thread_id", "the thread's index inside its block">;
def Cake_BlockIdOp : Cake_DimIdOp<"block_id", "the block's index inside the grid">;
def Cake_BlockDimOp : Cake_DimIdOp<"block_dim", "the block size (a constant: the kernel's `block`)">;
def Cake_GridDimOp : Cake_DimIdOp<"grid_dim", "the grid size">;
def Cake_ClusterIdOp : Cake_DimIdOp<"cluster_id", "the cluster's index inside the grid (sm_90+)",
    [CakeRequires<"Cluster">]>;
def Cake_ClusterBlockIdOp : Cake_DimIdOp<"cluster_block_id",
    "the block's index inside its cluster (sm_90+)", [CakeRequires<"Cluster">]>;

class Cake_LinearIdOp<string mnemonic, string what, string example>
    : Cake_Op<mnemonic, [Cake_InKernel, Pure]> {
  let summary = what;
  let description = "Returns " # what # " as an `index`, computed from the linear thread index "
      # "and the kernel's static block size.\n\n```mlir\n" # example # "\n```";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def Cake_LaneIdOp : Cake_LinearIdOp<"lane_id", "the thread's lane inside its warp (0 to 31)",
    "%lane = cake.lane_id">;
def Cake_WarpIdOp : Cake_LinearIdOp<"warp_id", "the warp's index inside the block",
    "%warp = cake.warp_id">;
def Cake_WarpgroupIdOp : Cake_LinearIdOp<"warpgroup_id",
    "the warpgroup's (4 consecutive warps) index inside the block", "%wg = cake.warpgroup_id">;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Cake_AllocSmemOp : Cake_Op<"alloc_smem", [Cake_InKernel, MemoryEffects<[MemAlloc]>]> {
  let summary = "a statically allocated shared-memory buffer";
  let description = [{
    Reserves a shared-memory buffer for the lifetime of the block. The type gives its shape, element
    type and swizzle; the buffer is aligned to its swizzle repeat (or 16 bytes).

    ```mlir
    %a = cake.alloc_smem : !cake.smem<64x16xf32>
    ```
  }];
  let results = (outs Cake_SmemType:$buffer);
  let assemblyFormat = "attr-dict `:` qualified(type($buffer))";
}

def Cake_LoadOp : Cake_MemoryAccessOp<"load",
    [CakeBoundsMasked<CakeRead<"getSource()", "getIndices()", "getWidth()">>],
    [Cake_InKernel, MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "a vector load from global or shared memory into registers";
  let description = [{
    Loads `width` consecutive elements of the innermost dimension starting at the given indices; the
    width is the result's vector length (a scalar result is width 1). An access is at most 16 bytes and
    must be aligned to its size: the indices the kernel computes must make it so (the manifest records
    the stride divisibility a vector access of a global tensor needs).

    With `masked` (global tensors only), elements outside the tensor's extents are not read: a fully
    in-bounds access takes one vector load, a ragged one loads element by element and fills the lanes
    outside with `pad` (default zero).

    ```mlir
    %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
    %m = cake.load %x[%r, %c] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %s = cake.load %tile[%r, %c] : !cake.smem<64x16xf32> -> f32
    ```
  }];
  let arguments = (ins Cake_MemoryType:$source, Variadic<Index>:$indices, UnitAttr:$masked,
                       Optional<Cake_ElementType>:$pad);
  let results = (outs Cake_RegisterType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` (`masked` $masked^)? (`pad` `(` $pad^ `:` type($pad) `)`)? attr-dict
    `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Elements moved by this access.
    int64_t getWidth();
  }];
}

def Cake_StoreOp : Cake_MemoryAccessOp<"store",
    [CakeBoundsMasked<CakeWrite<"getDest()", "getIndices()", "getWidth()">>],
    [Cake_InKernel, MemoryEffects<[MemWrite]>]> {
  let summary = "a vector store from registers to global or shared memory";
  let description = [{
    Stores `width` consecutive elements of the innermost dimension starting at the given indices; the
    width is the stored value's vector length. Same size and alignment rules as `cake.load`. With
    `masked` (global tensors only), elements outside the tensor's extents are not written.

    ```mlir
    cake.store %v, %z[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
    cake.store %s, %tile[%r, %c] : f32, !cake.smem<64x16xf32>
    ```
  }];
  let arguments = (ins Cake_RegisterType:$value, Cake_MemoryType:$dest, Variadic<Index>:$indices,
                       UnitAttr:$masked);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` (`masked` $masked^)? attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getWidth();
  }];
}

// An indivisible read-modify-write of one element: operands, syntax, verifier (that of a store),
// memory accesses (an atomic read and write) and lowering (llvm.atomicrmw) are shared; each op
// names its operation and the value types it takes.
class Cake_AtomicRmwOp<string mnemonic, list<Type> valueTypes>
    : Cake_MemoryAccessOp<mnemonic,
          [CakeAtomic<CakeBoundsMasked<CakeRead<"getDest()", "getIndices()">>>,
           CakeAtomic<CakeBoundsMasked<CakeWrite<"getDest()", "getIndices()">>>],
          [Cake_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let arguments = (ins AnyTypeOf<valueTypes>:$value, Cake_MemoryType:$dest, Variadic<Index>:$indices,
                       UnitAttr:$masked);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` (`masked` $masked^)? attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Cake_AtomicAddOp : Cake_AtomicRmwOp<"atomic_add", [F32, I32]> {
  let summary = "an atomic add of a scalar to one element of global or shared memory";
  let description = [{
    Adds `value` to the element at the given indices as one indivisible read-modify-write and
    returns nothing (PTX `red`/`atom` add, device scope): many threads may add to one element
    at once, which is how a KMeans centroid update sums the points of each cluster. `f32` or
    `i32`, the destination's element type. With `masked` (global tensors only), an element
    outside the tensor's extents is not touched. Adds are unordered with respect to each other,
    so an f32 sum's rounding depends on their order.

    ```mlir
    cake.atomic_add %v, %sums[%b, %k, %d] : f32, !cake.tensor<[B, K, D], f32>
    cake.atomic_add %one, %counts[%b, %k] masked : i32, !cake.tensor<[B, K], i32>
    ```
  }];
}

def Cake_AtomicMinOp : Cake_AtomicRmwOp<"atomic_min", [I32, I64]> {
  let summary = "an atomic unsigned minimum of a scalar and one element of global or shared memory";
  let description = [{
    Replaces the element at the given indices by the smaller of it and `value`, both read as
    unsigned integers, as one indivisible read-modify-write; returns nothing (PTX `red`/`atom`
    min.u32/u64, device scope). `i32` or `i64`, the destination's element type. With `masked`
    (global tensors only), an element outside the tensor's extents is not touched.

    This is how partial argmins merge (split-K KMeans or KNN: blocks that each saw part of the
    centroids): a non-negative float's bit pattern orders as an unsigned integer, so packing
    `(distance bits << 32) | index` into an i64 and taking the minimum keeps the nearest
    centroid, ties to the lower index, whatever the order the blocks arrive in.

    ```mlir
    cake.atomic_min %packed, %best[%b, %n] masked : i64, !cake.tensor<[B, N], i64>
    cake.atomic_min %bits, %slots[%t] : i32, !cake.smem<128xi32>
    ```
  }];
}

def Cake_AtomicFetchAddOp : Cake_MemoryAccessOp<"atomic_fetch_add",
          [CakeAtomic<CakeRead<"getDest()", "getIndices()">>,
           CakeAtomic<CakeWrite<"getDest()", "getIndices()">>],
          [Cake_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "an atomic add to one i32 element that returns the element's previous value";
  let description = [{
    Adds `value` to the element at the given indices as one indivisible read-modify-write and
    returns the value the element held before (PTX `atom.add.u32`). With `acq_rel` the operation
    also orders memory for the whole device (global memory; the block for shared memory): what
    this thread wrote before it is visible to a thread whose `acq_rel` fetch-add reads the
    result, and what that thread reads after its fetch-add sees it. This is how the last of
    several blocks learns that it is last and reads what the others wrote: each block writes its
    part, makes its threads' writes visible (`cake.fence gpu` in each writer, then
    `cake.barrier`), and one thread counts the block in with an `acq_rel` fetch-add; the block
    whose fetch-add returns count - 1 ran last. There is no `masked` form: an element that is
    not touched has no previous value to return.

    ```mlir
    %old = cake.atomic_fetch_add %one, %count[%tile] acq_rel : !cake.tensor<[T], i32>
    %slot = cake.atomic_fetch_add %one, %next[%c0] : !cake.smem<1xi32>
    ```
  }];
  let arguments = (ins I32:$value, Cake_MemoryType:$dest, Variadic<Index>:$indices,
                       UnitAttr:$acq_rel);
  let results = (outs I32:$old);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` (`acq_rel` $acq_rel^)? attr-dict `:` type($dest)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def Cake_FenceOp : Cake_Op<"fence", [Cake_InKernel, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "an acquire-release memory fence for the block (cta) or the whole device (gpu)";
  let description = [{
    Orders this thread's memory accesses before the fence against those after it, for every
    thread of the scope (PTX `fence.acq_rel.cta` or `fence.acq_rel.gpu`): writes before a `gpu`
    fence are visible to another block that observes a later write of this thread (for example
    a counter bumped by an `acq_rel` `cake.atomic_fetch_add`) and fences before reading. A block
    barrier orders shared memory within the block; between blocks only fences and `acq_rel`
    atomics do.

    ```mlir
    cake.fence gpu
    ```
  }];
  let arguments = (ins Cake_MemoryScopeAttr:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def Cake_BarrierOp : Cake_Op<"barrier", [Cake_InKernel]> {
  let summary = "a block-wide barrier (bar.sync 0)";
  let description = [{
    Every thread of the block waits here until all have arrived; shared-memory accesses before it are
    visible to all threads after it. Every thread of the block must reach it.

    ```mlir
    cake.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp reductions
//===----------------------------------------------------------------------===//

def Cake_WarpReduceOp : Cake_Op<"warp_reduce", [Cake_InKernel, Pure, SameOperandsAndResultType]> {
  let summary = "a butterfly shuffle reduction across the lanes of a warp";
  let description = [{
    Reduces `value` over groups of `lanes` consecutive lanes (2, 4, 8, 16 or 32; default 32) with
    `sum`, `max` or `min`; every lane of a group receives the result. All 32 lanes of the warp must
    execute it. `max`/`min` on floats propagate NaN.

    ```mlir
    %s = cake.warp_reduce sum %v : f32
    %m = cake.warp_reduce max %v {lanes = 8 : i64} : f32
    ```
  }];
  let arguments = (ins Cake_ReduceKindAttr:$kind, AnyTypeOf<[I32, F32]>:$value,
                       DefaultValuedAttr<I64Attr, "32">:$lanes);
  let results = (outs AnyTypeOf<[I32, F32]>:$result);
  let assemblyFormat = "$kind $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Cake_WarpArgReduceOp : Cake_Op<"warp_arg_reduce", [Cake_InKernel, Pure]> {
  let summary = "a shuffle reduction of (value, index) pairs: argmin or argmax across a warp";
  let description = [{
    Reduces the pairs (`value`, `index`) over groups of `lanes` consecutive lanes and returns the
    winning pair to every lane of the group. Ties go to the smaller index, so the result does not depend
    on the order of lanes. All 32 lanes of the warp must execute it.

    ```mlir
    %best, %arg = cake.warp_arg_reduce argmin %d, %k : f32, i32
    ```
  }];
  let arguments = (ins Cake_ArgReduceKindAttr:$kind, F32:$value, I32:$index,
                       DefaultValuedAttr<I64Attr, "32">:$lanes);
  let results = (outs F32:$result_value, I32:$result_index);
  let assemblyFormat = "$kind $value `,` $index attr-dict `:` type($value) `,` type($index)";
  let hasVerifier = 1;
}

include "Cake/IR/CakeHopperOps.td"
include "Cake/IR/CakeAmpereOps.td"
include "Cake/IR/CakeBlackwellOps.td"

#endif // CAKE_IR_CAKEOPS_TD
