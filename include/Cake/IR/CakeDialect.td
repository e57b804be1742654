//===- CakeDialect.td - the cake dialect definition --------*- tablegen -*-===//
#ifndef CAKE_IR_CAKEDIALECT_TD
#define CAKE_IR_CAKEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Cake_Dialect : Dialect {
  let name = "cake";
  let cppNamespace = "::mlir::cake";
  let summary = "Typed, hardware-explicit GPU kernels for compiler-agent co-design";
  let description = [{
    The `cake` dialect describes one GPU kernel per `cake.kernel` op with the hardware decisions made
    explicit and typed: the target, the static block size, problem sizes as named symbols, global tensors
    whose shapes and strides are expressions of those symbols, shared-memory buffers whose swizzle is part
    of their type, loads and stores with an explicit vector width and bounds masking, barriers and warp
    reductions. Everything else (arithmetic, loops, vectors) is upstream `arith`, `math`, `scf` and
    `vector`. `cake-lower-to-nvvm` lowers it through `gpu` and `nvvm` to LLVM; `cake-translate` emits
    LLVM IR, PTX, cubin and the kernel manifest.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the types (defined in CakeTypes.cpp, where their storage is).
    void registerTypes();
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

class Cake_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cake_Dialect, mnemonic, traits>;

class Cake_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Cake_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Cake_Dim : I32EnumAttr<"Dim", "a dimension of the thread/block/cluster index space", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::cake";
}
def Cake_DimAttr : EnumAttr<Cake_Dialect, Cake_Dim, "dim">;

def Cake_ReduceKind : I32EnumAttr<"ReduceKind", "a warp reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>, I32EnumAttrCase<"min", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::cake";
}
def Cake_ReduceKindAttr : EnumAttr<Cake_Dialect, Cake_ReduceKind, "reduce_kind">;

def Cake_ArgReduceKind : I32EnumAttr<"ArgReduceKind", "a warp argument reduction", [
    I32EnumAttrCase<"argmin", 0>, I32EnumAttrCase<"argmax", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::cake";
}
def Cake_ArgReduceKindAttr : EnumAttr<Cake_Dialect, Cake_ArgReduceKind, "arg_reduce_kind">;

def Cake_MemoryScope : I32EnumAttr<"MemoryScope", "the threads a fence orders memory for", [
    I32EnumAttrCase<"cta", 0>, I32EnumAttrCase<"gpu", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::cake";
}
def Cake_MemoryScopeAttr : EnumAttr<Cake_Dialect, Cake_MemoryScope, "memory_scope">;

#endif // CAKE_IR_CAKEDIALECT_TD
