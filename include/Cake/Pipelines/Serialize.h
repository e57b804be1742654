//===- Serialize.h - LLVM IR, PTX and cubin from lowered IR -----*- C++ -*-===//
#ifndef CAKE_PIPELINES_SERIALIZE_H
#define CAKE_PIPELINES_SERIALIZE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::cake {

/// Prints the LLVM IR of the (single) gpu.module of a lowered module.
LogicalResult emitLLVMIR(ModuleOp lowered, llvm::raw_ostream &os);

/// Serializes the gpu.module of a lowered module to PTX (gpu-module-to-binary, format=isa).
FailureOr<std::string> emitPTX(ModuleOp lowered);

/// The chip (e.g. sm_90a) of the #nvvm.target on the lowered module's gpu.module.
FailureOr<std::string> getLoweredChip(ModuleOp lowered);

/// Where ptxas is: `explicitPath` if given, else $CUDA_HOME/bin (also CUDA_PATH, CUDA_ROOT),
/// else PATH. Empty if none exists.
std::string findPtxas(llvm::StringRef explicitPath);

/// Assembles `ptx` for `chip` with ptxas (-O3 -v). On success returns the cubin bytes and puts
/// ptxas's resource report (registers, spills, shared bytes) in `report`; on failure `report`
/// holds the reason (ptxas's own messages).
FailureOr<std::string> assembleCubin(llvm::StringRef ptx, llvm::StringRef chip,
                                     llvm::StringRef ptxasPath, std::string &report);

} // namespace mlir::cake

#endif // CAKE_PIPELINES_SERIALIZE_H
