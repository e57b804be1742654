//===- KernelToGPUFunc.cpp - cake.kernel -> gpu.func ----------------------===//
//
// The structural half of the lowering: a cake.kernel becomes a gpu.func kernel whose parameters
// follow the manifest's ABI (tensors as global pointers, scalars by value, then one i64 per
// problem-size symbol). The ops of the body move over unchanged for the patterns to lower.
//
//===----------------------------------------------------------------------===//
#include "Cake/Conversion/CakeToNVVM.h"
#include "ConversionUtils.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::cake;

static DenseI32ArrayAttr toI32Array(Builder &b, ArrayRef<int64_t> dims) {
  SmallVector<int32_t, 3> values(dims.begin(), dims.end());
  return b.getDenseI32ArrayAttr(values);
}

LogicalResult mlir::cake::convertKernelToGPUFunc(KernelOp kernel, Operation *gpuModule) {
  MLIRContext *ctx = kernel.getContext();
  // Shared allocations become offsets in the kernel's dynamic shared-memory segment.
  SharedMemoryLayout layout = kernel.getSharedMemoryLayout();
  int64_t sharedBytes = layout.totalBytes + kernel.getDynamicSmem();
  if (sharedBytes > kernel.getMaxSharedBytes())
    return kernel.emitError() << "the kernel needs " << sharedBytes
                              << " bytes of shared memory, more than the " << kernel.getMaxSharedBytes()
                              << " a block may use on " << kernel.getTarget();
  for (auto [op, offset] : layout.offsets)
    op->setAttr(kSmemOffsetAttrName, IntegerAttr::get(IntegerType::get(ctx, 64), offset));

  CakeTypeConverter converter(ctx);
  SmallVector<Type> inputs;
  for (Type type : kernel.getArgumentTypes())
    inputs.push_back(converter.convertType(type));
  unsigned numSymbols = kernel.getSymbolNames().size();
  inputs.append(numSymbols, IntegerType::get(ctx, 64));

  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&gpuModule->getRegion(0).front());
  auto func =
      gpu::GPUFuncOp::create(b, kernel.getLoc(), kernel.getSymName(), b.getFunctionType(inputs, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(toI32Array(b, kernel.getBlockDims()));
  if (kernel.getCluster())
    func.setKnownClusterSizeAttr(toI32Array(b, kernel.getClusterDims()));
  func->setAttr(kSymbolsAttrName, kernel.getSymbolsAttr());
  if (std::optional<DictionaryAttr> fixed = kernel.getSpecialize())
    func->setAttr(kSpecializeAttrName, *fixed);
  // Register reallocation needs a register cap at entry: one block per SM. Otherwise the
  // kernel's own occupancy request, if any (ptxas fits the registers to it).
  bool reallocates = false;
  kernel.walk([&](RoleOp role) { reallocates |= role.getRegs().has_value(); });
  std::optional<int64_t> minBlocks = kernel.getMinBlocksPerSm();
  if (reallocates)
    minBlocks = 1;
  if (minBlocks)
    func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(*minBlocks));

  // Old parameters become new ones; tensors go through a cast the conversion folds away later.
  Block &entry = func.getBody().front();
  Block &oldEntry = kernel.getBody().front();
  b.setInsertionPointToStart(&entry);
  for (auto [oldArg, newArg] : llvm::zip(oldEntry.getArguments(), entry.getArguments())) {
    Value replacement = newArg;
    if (oldArg.getType() != newArg.getType())
      replacement = UnrealizedConversionCastOp::create(b, oldArg.getLoc(), oldArg.getType(), newArg)
                        .getResult(0);
    oldArg.replaceAllUsesWith(replacement);
  }
  entry.getOperations().splice(entry.end(), oldEntry.getOperations());

  ArrayRef<BlockArgument> symbolArgs = entry.getArguments().take_back(numSymbols);
  SmallVector<Operation *> toErase;
  func.walk([&](Operation *op) {
    if (auto size = dyn_cast<ProblemSizeOp>(op)) {
      b.setInsertionPoint(size);
      Value value;
      if (std::optional<int64_t> fixed = kernel.getSpecializedSize(size.getSymbol()))
        value = arith::ConstantIndexOp::create(b, size.getLoc(), *fixed);
      else
        value = arith::IndexCastOp::create(b, size.getLoc(), b.getIndexType(),
                                           symbolArgs[*kernel.getSymbolIndex(size.getSymbol())]);
      size.replaceAllUsesWith(value);
      toErase.push_back(size);
    } else if (auto ret = dyn_cast<ReturnOp>(op)) {
      b.setInsertionPoint(ret);
      gpu::ReturnOp::create(b, ret.getLoc());
      toErase.push_back(ret);
    }
  });
  for (Operation *op : toErase)
    op->erase();
  kernel.erase();
  return success();
}
