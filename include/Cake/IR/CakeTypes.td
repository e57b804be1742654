//===- CakeTypes.td - cake types ---------------------------*- tablegen -*-===//
#ifndef CAKE_IR_CAKETYPES_TD
#define CAKE_IR_CAKETYPES_TD

include "Cake/IR/CakeDialect.td"

def Cake_TensorType : Cake_Type<"GlobalTensor", "tensor"> {
  let summary = "a global-memory tensor whose extents and strides are symbolic";
  let description = [{
    A kernel parameter pointing at global memory. Each extent and each stride is either a static
    integer or the name of one of the kernel's problem-size symbols. Without `strides` the tensor is
    row-major and contiguous (the last dimension has stride 1). Extents and strides count elements.

    ```mlir
    !cake.tensor<[N, 128], f32>               // row-major, N rows of 128
    !cake.tensor<[M, K], f16, strides [LDA, 1]>
    ```
  }];
  let parameters = (ins
    "::mlir::ArrayAttr":$shape,
    "::mlir::Type":$elementType,
    "::mlir::ArrayAttr":$strides
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of dimensions.
    unsigned getRank() const { return getShape().size(); }
    /// True if `strides` was given explicitly (else row-major contiguous).
    bool hasExplicitStrides() const { return !getStrides().empty(); }
    /// The stride of dimension `dim`: an IntegerAttr, a StringAttr (a symbol) or, for implicit
    /// row-major strides, the product of the trailing extents as a list of factors.
    ::llvm::SmallVector<::mlir::Attribute> getStrideFactors(unsigned dim) const;
    /// Size in bytes of one element.
    unsigned getElementBytes() const;
    /// The stride of dimension `dim` in elements when it is static, else std::nullopt.
    std::optional<int64_t> getStaticStride(unsigned dim) const;
  }];
}

def Cake_SmemType : Cake_Type<"Smem", "smem"> {
  let summary = "a statically shaped shared-memory buffer with an optional swizzle";
  let description = [{
    A buffer in the block's shared memory, row-major, with a static shape. The layout is part of the
    type, so every access computes the same addresses and the verifier and cost model see them:
    `swizzle` (32, 64 or 128 bytes) XORs the 16-byte chunk index inside each swizzle row with the row
    index, as the TMA unit and wgmma expect; `pad` (elements) follows every innermost row with
    padding, the classic way to spread a column walk over the banks. Both keep column accesses free
    of bank conflicts; loads and stores compute the addresses, the user indexes logically. A buffer
    has one or the other (TMA and wgmma need swizzled, unpadded buffers). Its size is below 2^32
    bytes (shared memory is addressed in 32 bits; the target's much lower limit is
    `cake-verify-smem`'s `smem.over-limit`).

    ```mlir
    !cake.smem<64x64xf32>
    !cake.smem<128x64xf16, swizzle = 128>
    !cake.smem<16x64xf32, pad = 4>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    DefaultValuedParameter<"int64_t", "0">:$swizzle,
    DefaultValuedParameter<"int64_t", "0">:$pad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
    unsigned getElementBytes() const;
    /// Bytes the buffer occupies, padding included.
    int64_t getSizeInBytes() const;
    /// Element strides of each dimension (the innermost rows are `pad` elements longer).
    ::llvm::SmallVector<int64_t> getElementStrides() const;
    /// Alignment the buffer needs: the swizzle's repeat (8 rows of `swizzle` bytes) or 16 bytes.
    int64_t getAlignment() const { return getSwizzle() ? 8 * getSwizzle() : 16; }
  }];
}


def Cake_MbarriersType : Cake_Type<"Mbarriers", "mbarriers"> {
  let summary = "an array of mbarriers in shared memory";
  let description = [{
    `count` 8-byte mbarrier objects in the block's shared memory (sm_80+; transaction counts need
    sm_90). Allocated by `cake.mbarrier.alloc`, indexed by the ops that use them.

    ```mlir
    !cake.mbarriers<4>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def Cake_PipelineType : Cake_Type<"Pipeline", "pipeline"> {
  let summary = "a ring of shared-memory stages with full and empty mbarriers";
  let description = [{
    A software pipeline of `stages` slots. Each slot has a "full" barrier (the producer's copies
    complete on it) and an "empty" barrier (consumers release the slot on it). Pipeline ops take an
    iteration number; the lowering derives the slot (iteration mod stages) and the phase parity, so
    kernels never track parity by hand.

    ```mlir
    !cake.pipeline<4>
    ```
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def Cake_TmemType : Cake_Type<"Tmem", "tmem"> {
  let summary = "a block's allocation of tensor memory (sm_100a)";
  let description = [{
    `columns` 32-bit columns of the 128 lanes of tensor memory (TMEM), the accumulator store of
    Blackwell's tcgen05 MMAs: an f32 accumulator of 128 rows (one per lane) by `columns` values.
    `columns` is a power of two from 32 to 512 (the allocation unit and the SM's whole TMEM).
    Allocated by `cake.tmem.alloc`, freed by `cake.tmem.dealloc`.

    With `pair`, the allocation spans the two blocks of a CTA pair (cluster ranks 2i and 2i + 1
    along x; `tcgen05.*.cta_group::2`): each block holds its 128 rows at the same address, and an
    MMA into it computes a 256-row tile, rows 0-127 in the even block and 128-255 in the odd one.

    ```mlir
    !cake.tmem<128x256xf32>
    !cake.tmem<128x256xf32, pair>
    ```
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$columns, "::mlir::Type":$elementType,
                        DefaultValuedParameter<"bool", "false">:$pair);
  let builders = [
    TypeBuilder<(ins "int64_t":$rows, "int64_t":$columns, "::mlir::Type":$elementType), [{
      return $_get($_ctxt, rows, columns, elementType, false);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Cake_TmaType : Cake_Type<"Tma", "tma"> {
  let summary = "a TMA tensor-map descriptor over a global tensor parameter";
  let description = [{
    A tiled tensor map (sm_90+) that the host encodes (cuTensorMapEncodeTiled) from the manifest for
    the tensor parameter named by the parameter attribute `cake.describes`. `shape` repeats that
    tensor's extents (row-major, outermost first); `box` is the tile one copy moves (outermost first,
    each at most 256; the inner box a multiple of 16 bytes); `swizzle` (32, 64 or 128 bytes) must
    equal the inner box's bytes and the destination buffer's swizzle. Reads outside the tensor fill
    zeros, so ragged tiles need no masking.

    ```mlir
    !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>
    ```
  }];
  let parameters = (ins
    "::mlir::ArrayAttr":$shape,
    "::mlir::Type":$elementType,
    ArrayRefParameter<"int64_t">:$box,
    DefaultValuedParameter<"int64_t", "0">:$swizzle
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    /// Bytes one copy moves (the product of the box times the element size).
    int64_t getBoxBytes() const;
  }];
}

#endif // CAKE_IR_CAKETYPES_TD
