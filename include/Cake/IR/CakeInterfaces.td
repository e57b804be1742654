//===- CakeInterfaces.td - cake op interfaces --------------*- tablegen -*-===//
#ifndef CAKE_IR_CAKEINTERFACES_TD
#define CAKE_IR_CAKEINTERFACES_TD

include "mlir/IR/OpBase.td"

def CakeMemoryAccessOpInterface : OpInterface<"MemoryAccessOpInterface"> {
  let cppNamespace = "::mlir::cake";
  let description = [{
    What memory an op touches: for each buffer operand (a `!cake.tensor`, a `!cake.smem` or a
    `!cake.tma` descriptor, which stands for the tensor it describes), whether the op reads or
    writes it, through which proxy (generic loads and stores, or the async proxy of TMA and wgmma),
    how many consecutive elements one thread accesses at once (what the alignment of a global
    tensor's strides must allow), and the indices of the access. One source of truth for the
    manifest's `access`, the interface check, and every analysis that asks which memory an op
    uses: a new memory op implements this and the analyses need no new case.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends one `MemoryAccess` per buffer the op reads or writes.
      }], "void", "getMemoryAccesses",
      (ins "::llvm::SmallVectorImpl<::mlir::cake::MemoryAccess> &":$accesses)>,
  ];
}

// Accesses declared in ODS: an op that derives from Cake_MemoryAccessOp lists them and gets its
// getMemoryAccesses generated; ops whose accesses need computing (TMA boxes, wgmma tiles,
// completion on a barrier) define it in lib/IR/MemoryAccess.cpp instead. Each field is C++ in the
// op's class: `buffer` and `indices` its getters, `width` an integer expression.
class CakeAccessSpec {
  string build = "";
}
class CakeAccess<string accessKind, string buffer, string indices, string width = "1">
    : CakeAccessSpec {
  let build = "::mlir::cake::MemoryAccess::make(" # buffer # ", ::mlir::cake::AccessKind::" #
                 accessKind # ", " # indices # ", " # width # ")";
}
class CakeRead<string buffer, string indices, string width = "1">
    : CakeAccess<"Read", buffer, indices, width>;
class CakeWrite<string buffer, string indices, string width = "1">
    : CakeAccess<"Write", buffer, indices, width>;
// Lanes past the tensor's extents access nothing where `condition` (C++, usually getMasked()).
class CakeBoundsMasked<CakeAccessSpec access, string condition = "getMasked()">
    : CakeAccessSpec {
  let build = access.build # ".withBoundsMask(" # condition # ")";
}
// Atomic read-modify-writes do not race with one another.
class CakeAtomic<CakeAccessSpec access> : CakeAccessSpec {
  let build = access.build # ".asAtomic()";
}

def CakeTargetRequirementOpInterface : OpInterface<"TargetRequirementOpInterface"> {
  let cppNamespace = "::mlir::cake";
  let description = [{
    What an op needs from its kernel's target: `TargetRequirement`s of
    `include/Cake/IR/TargetRequirements.def`, each a rule id, the feature in words and the
    feature bits. Ops with a fixed need list the `CakeRequires<"Name">` trait, which implements
    this interface; ops whose need depends on their attributes (a role with `regs`, a kernel with
    a cluster or TMA parameters) implement it themselves. cake-verify-target is the one checker
    of these needs, and the lowering pipeline runs it before anything else.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends what the op needs from its kernel's target.
      }], "void", "getTargetRequirements",
      (ins "::llvm::SmallVectorImpl<::mlir::cake::TargetRequirement> &":$requirements)>,
  ];
}

// The op needs the feature `requirement` names (an enumerator of TargetRequirements.def) from its
// kernel's target. Implements CakeTargetRequirementOpInterface.
class CakeRequires<string requirement>
    : ParamNativeOpTrait<"Requires", "::mlir::cake::TargetRequirement::" # requirement> {
  let cppNamespace = "::mlir::cake";
}

#endif // CAKE_IR_CAKEINTERFACES_TD
