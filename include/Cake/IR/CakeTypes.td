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
  }];
}

def Cake_SmemType : Cake_Type<"Smem", "smem"> {
  let summary = "a statically shaped shared-memory buffer with an optional swizzle";
  let description = [{
    A buffer in the block's shared memory, row-major, with a static shape. `swizzle` (32, 64 or 128
    bytes) XORs the 16-byte chunk index inside each swizzle row with the row index, as the TMA unit and
    wgmma expect, so that column accesses are free of bank conflicts; loads and stores compute swizzled
    addresses, the user indexes logically.

    ```mlir
    !cake.smem<64x64xf32>
    !cake.smem<128x64xf16, swizzle = 128>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    DefaultValuedParameter<"int64_t", "0">:$swizzle
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
    unsigned getElementBytes() const;
    int64_t getSizeInBytes() const { return getNumElements() * getElementBytes(); }
    /// Alignment the buffer needs: the swizzle's repeat (8 rows of `swizzle` bytes) or 16 bytes.
    int64_t getAlignment() const { return getSwizzle() ? 8 * getSwizzle() : 16; }
  }];
}

#endif // CAKE_IR_CAKETYPES_TD
