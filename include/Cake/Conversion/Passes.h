//===- Passes.h - cake conversion passes ------------------------*- C++ -*-===//
#ifndef CAKE_CONVERSION_PASSES_H
#define CAKE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
namespace gpu {
class GPUDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace arith {
class ArithDialect;
}
namespace math {
class MathDialect;
}
namespace scf {
class SCFDialect;
}
namespace vector {
class VectorDialect;
}
} // namespace mlir

namespace mlir::cake {
#define GEN_PASS_DECL
#include "Cake/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Cake/Conversion/Passes.h.inc"
} // namespace mlir::cake

#endif // CAKE_CONVERSION_PASSES_H
