//===- Serialize.cpp - LLVM IR, PTX and cubin from lowered IR -------------===//
#include "Cake/Pipelines/Serialize.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::cake;

static FailureOr<gpu::GPUModuleOp> getSingleGPUModule(ModuleOp lowered) {
  auto modules = llvm::to_vector(lowered.getOps<gpu::GPUModuleOp>());
  if (modules.size() != 1)
    return lowered.emitError() << "expected one gpu.module after lowering, got "
                               << modules.size();
  return modules.front();
}

LogicalResult mlir::cake::emitLLVMIR(ModuleOp lowered, llvm::raw_ostream &os) {
  FailureOr<gpu::GPUModuleOp> gpuModule = getSingleGPUModule(lowered);
  if (failed(gpuModule))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*gpuModule, llvmContext, gpuModule->getName());
  if (!llvmModule)
    return gpuModule->emitError() << "failed to translate the gpu.module to LLVM IR";
  llvmModule->print(os, nullptr);
  return success();
}

FailureOr<std::string> mlir::cake::getLoweredChip(ModuleOp lowered) {
  FailureOr<gpu::GPUModuleOp> gpuModule = getSingleGPUModule(lowered);
  if (failed(gpuModule))
    return failure();
  if (ArrayAttr targets = gpuModule->getTargetsAttr())
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
        return nvvm.getChip().str();
  return gpuModule->emitError() << "expected an #nvvm.target on the gpu.module";
}

FailureOr<std::string> mlir::cake::emitPTX(ModuleOp lowered) {
  ModuleOp copy = cast<ModuleOp>(lowered->clone());
  auto cleanup = llvm::scope_exit([&] { copy->erase(); });
  PassManager pm(lowered.getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(copy)))
    return failure();
  for (auto binary : copy.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      return cast<gpu::ObjectAttr>(object).getObject().getValue().str();
  return lowered.emitError() << "gpu-module-to-binary produced no PTX";
}

std::string mlir::cake::findPtxas(llvm::StringRef explicitPath) {
  if (!explicitPath.empty())
    return llvm::sys::fs::can_execute(explicitPath) ? explicitPath.str() : "";
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"}) {
    if (const char *root = std::getenv(var)) {
      llvm::SmallString<256> path(root);
      llvm::sys::path::append(path, "bin", "ptxas");
      if (llvm::sys::fs::can_execute(path))
        return path.str().str();
    }
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return "";
}

FailureOr<std::string> mlir::cake::assembleCubin(llvm::StringRef ptx, llvm::StringRef chip,
                                                 llvm::StringRef ptxasPath,
                                                 std::string &report) {
  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  if (llvm::sys::fs::createTemporaryFile("cake", "ptx", ptxFile) ||
      llvm::sys::fs::createTemporaryFile("cake", "cubin", cubinFile) ||
      llvm::sys::fs::createTemporaryFile("cake", "log", logFile)) {
    report = "cannot create temporary files for ptxas";
    return failure();
  }
  // Removed however the tool ends: returning, or interrupted (SIGINT, SIGTERM) while ptxas runs.
  for (const auto &file : {ptxFile, cubinFile, logFile})
    llvm::sys::RemoveFileOnSignal(file);
  auto cleanup = llvm::scope_exit([&] {
    for (const auto &file : {ptxFile, cubinFile, logFile}) {
      llvm::sys::fs::remove(file);
      llvm::sys::DontRemoveFileOnSignal(file);
    }
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(ptxFile, ec);
    if (ec) {
      report = "cannot write " + ptxFile.str().str() + ": " + ec.message();
      return failure();
    }
    out << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxasPath, arch, "-O3", "-v", ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, logFile.str(), logFile.str()};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(ptxasPath, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/120, 0, &execError);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  report = log ? (*log)->getBuffer().str() : "";
  if (status != 0) {
    if (!execError.empty())
      report = execError + "\n" + report;
    return failure();
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false);
  if (!cubin) {
    report = "ptxas produced no cubin";
    return failure();
  }
  // A ptxas that exits 0 without writing one (a broken install, a wrapper script) must not give an
  // empty or foreign file that fails only when a GPU loads it.
  if (!(*cubin)->getBuffer().starts_with("\x7f" "ELF")) {
    report = (*cubin)->getBuffer().empty()
                 ? "ptxas exited 0 but wrote an empty cubin"
                 : "ptxas exited 0 but its output is not an ELF cubin";
    report += " (" + ptxasPath.str() + ")";
    return failure();
  }
  return (*cubin)->getBuffer().str();
}
