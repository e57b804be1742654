//===- CakeOps.cpp - cake operations --------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::cake;

#define GET_OP_CLASSES
#include "Cake/IR/CakeOps.cpp.inc"

LogicalResult mlir::cake::verifyInKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError() << "expected to be inside a cake.kernel";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name, FunctionType type,
                     StringRef target, ArrayRef<int64_t> block, ArrayRef<StringRef> symbols,
                     AffineMap grid) {
  state.addAttribute(getSymNameAttrName(state.name), builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getTargetAttrName(state.name), builder.getStringAttr(target));
  state.addAttribute(getBlockAttrName(state.name), builder.getDenseI64ArrayAttr(block));
  state.addAttribute(getSymbolsAttrName(state.name), builder.getStrArrayAttr(symbols));
  state.addAttribute(getGridAttrName(state.name), AffineMapAttr::get(grid));
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs())
    entry->addArgument(input, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> args, ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(args, results);
  };
  SMLoc loc = parser.getCurrentLocation();
  if (failed(function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), buildType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name))))
    return failure();
  // The attribute dictionary becomes the op's properties, which drop a wrongly typed inherent
  // attribute without a word (`dynamic_smem = "x"` then crashed its getter): refuse it here.
  return verifyInherentAttrs(result.name, result.attributes,
                             [&] { return parser.emitError(loc); });
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

bool KernelOp::waitsForGridDependencies() {
  return walk([](GridDependencyWaitOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

int64_t KernelOp::getNumThreads() {
  int64_t n = 1;
  for (int64_t extent : getBlock())
    n *= extent;
  return n;
}

static SmallVector<int64_t, 3> padTo3(ArrayRef<int64_t> dims) {
  SmallVector<int64_t, 3> padded(dims.begin(), dims.end());
  padded.resize(3, 1);
  return padded;
}

SmallVector<int64_t, 3> KernelOp::getBlockDims() { return padTo3(getBlock()); }

SmallVector<int64_t, 3> KernelOp::getClusterDims() {
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
    return padTo3(*cluster);
  return {1, 1, 1};
}

std::optional<unsigned> KernelOp::getSymbolIndex(StringRef name) {
  for (auto [index, symbol] : llvm::enumerate(getSymbolNames()))
    if (symbol == name)
      return index;
  return std::nullopt;
}

std::optional<int64_t> KernelOp::getSpecializedSize(StringRef name) {
  if (std::optional<DictionaryAttr> fixed = getSpecialize())
    if (auto value = fixed->getAs<IntegerAttr>(name))
      return value.getInt();
  return std::nullopt;
}

SmallVector<StringRef> KernelOp::getSymbolNames() {
  SmallVector<StringRef> names;
  if (!getSymbolsAttr()) // absent: none
    return names;
  for (Attribute symbol : getSymbols())
    if (auto name = dyn_cast<StringAttr>(symbol))
      names.push_back(name.getValue());
  return names;
}

/// Maximum dynamic shared memory one block may request on `target` (Targets.def).
static int64_t getMaxDynamicSharedBytes(StringRef target) {
  const TargetInfo *info = lookupTarget(target);
  return info ? info->maxDynamicSharedBytes : 0;
}

int64_t KernelOp::getMaxSharedBytes() { return getMaxDynamicSharedBytes(getTarget()); }

SharedMemoryLayout KernelOp::getSharedMemoryLayout() {
  SharedMemoryLayout layout;
  auto place = [&](Operation *op, int64_t bytes, int64_t alignment) {
    int64_t offset = llvm::alignTo(layout.totalBytes, alignment);
    layout.offsets[op] = offset;
    layout.totalBytes = offset + bytes;
  };
  walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocSmemOp>(op)) {
      SmemType type = alloc.getBuffer().getType();
      // At least 128 bytes: a TMA copy into or out of the buffer needs it (a 16-byte aligned
      // buffer after an odd-sized one faulted with "misaligned address").
      place(op, type.getSizeInBytes(), std::max<int64_t>(type.getAlignment(), 128));
    } else if (auto bars = dyn_cast<MbarrierAllocOp>(op)) {
      place(op, 8 * bars.getBarriers().getType().getCount(), 8);
    } else if (auto pipe = dyn_cast<PipelineCreateOp>(op)) {
      place(op, 16 * pipe.getPipeline().getType().getStages(), 8);
    } else if (isa<TmemAllocOp>(op)) {
      place(op, 4, 4); // the word tcgen05.alloc writes the address into
    }
  });
  return layout;
}

static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// A PTX identifier: a letter, then letters, digits, _ and $; or _ or $ and at least one more.
/// The kernel's name is its PTX entry and the manifest's "entry" (LLVM's NVPTX backend aborts on
/// other characters, or renames '.', and the host would not find the kernel).
static bool isPtxIdentifier(StringRef name) {
  auto follows = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (name.empty() || !llvm::all_of(name, follows) || llvm::isDigit(name.front()))
    return false;
  return llvm::isAlpha(name.front()) || name.size() > 1;
}

/// The first division of a grid extent by a constant that is not positive, if any.
static std::optional<AffineBinaryOpExpr> findNonPositiveDivisor(AffineExpr expr) {
  std::optional<AffineBinaryOpExpr> found;
  expr.walk([&](AffineExpr sub) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (found || !binary || binary.getKind() == AffineExprKind::Add ||
        binary.getKind() == AffineExprKind::Mul)
      return;
    if (auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS()); divisor && divisor.getValue() <= 0)
      found = binary;
  });
  return found;
}

LogicalResult KernelOp::verify() {
  if (!isPtxIdentifier(getSymName()))
    return emitOpError() << "expected the kernel name to be a PTX identifier (a letter, _ or $, "
                            "then letters, digits, _ and $), got '"
                         << getSymName() << "'";
  StringRef target = getTarget();
  if (!isKnownTarget(target))
    return emitOpError() << "unknown target '" << target << "', expected one of "
                         << joinTargetsWith(0);

  ArrayRef<int64_t> block = getBlock();
  if (block.empty() || block.size() > 3)
    return emitOpError() << "expected 1 to 3 block extents, got " << block.size();
  if (llvm::any_of(block, [](int64_t e) { return e < 1; }))
    return emitOpError() << "expected positive block extents";
  int64_t threads = getNumThreads();
  if (threads > 1024)
    return emitOpError() << "expected at most 1024 threads per block, got " << threads;
  if (threads % 32 != 0)
    return emitOpError() << "expected a whole number of warps per block (a multiple of 32 "
                            "threads), got "
                         << threads;

  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    if (cluster->empty() || cluster->size() > 3)
      return emitOpError() << "expected 1 to 3 cluster extents, got " << cluster->size();
    int64_t blocks = 1;
    for (int64_t e : *cluster) {
      if (e < 1)
        return emitOpError() << "expected positive cluster extents";
      blocks *= e;
    }
    if (blocks > 8)
      return emitOpError() << "expected at most 8 blocks per cluster, got " << blocks;
  }

  llvm::StringSet<> seen;
  for (StringRef symbol : getSymbolNames()) {
    if (!isIdentifier(symbol))
      return emitOpError() << "expected symbol names to be identifiers, got '" << symbol << "'";
    if (!seen.insert(symbol).second)
      return emitOpError() << "symbol '" << symbol << "' is declared twice";
  }

  AffineMap grid = getGrid();
  if (grid.getNumDims() != 0 || grid.getNumSymbols() != getSymbolNames().size())
    return emitOpError() << "expected the grid map to have 0 dimensions and one symbol per "
                            "problem-size symbol ("
                         << getSymbolNames().size() << "), got " << grid.getNumDims()
                         << " dimensions and " << grid.getNumSymbols() << " symbols";
  if (grid.getNumResults() < 1 || grid.getNumResults() > 3)
    return emitOpError() << "expected 1 to 3 grid extents, got " << grid.getNumResults();
  for (auto [dim, extent] : llvm::enumerate(grid.getResults())) {
    if (std::optional<AffineBinaryOpExpr> division = findNonPositiveDivisor(extent)) {
      std::string text;
      llvm::raw_string_ostream(text) << *division;
      return emitOpError() << "grid extent " << dim << " divides by a constant that is not "
                           << "positive (" << text << ")";
    }
    // CUDA's limits: 2^31 - 1 blocks in x, 65535 in y and z.
    int64_t most = dim == 0 ? (int64_t(1) << 31) - 1 : 65535;
    if (auto constant = dyn_cast<AffineConstantExpr>(extent);
        constant && (constant.getValue() < 1 || constant.getValue() > most))
      return emitOpError() << "expected grid extent " << dim << " in [1, " << most << "], got "
                           << constant.getValue();
  }

  int64_t dynamicSmem = getDynamicSmem();
  if (dynamicSmem < 0 || dynamicSmem > getMaxDynamicSharedBytes(target))
    return emitOpError() << "expected dynamic_smem in [0, " << getMaxDynamicSharedBytes(target)
                         << "] bytes on " << target << ", got " << dynamicSmem;

  if (std::optional<int64_t> width = getIndexBitwidth(); width && *width != 32 && *width != 64)
    return emitOpError() << "expected index_bitwidth 32 or 64, got " << *width;

  if (std::optional<DictionaryAttr> fixed = getSpecialize()) {
    for (NamedAttribute entry : *fixed) {
      if (!seen.contains(entry.getName().getValue()))
        return emitOpError() << "specialize names '" << entry.getName().getValue()
                             << "', which is not one of the kernel's symbols";
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      auto type = value ? dyn_cast<IntegerType>(value.getType()) : IntegerType();
      if (!type || type.getWidth() < 2 || value.getInt() < 0)
        return emitOpError() << "expected specialize's '" << entry.getName().getValue()
                             << "' to be a non-negative integer, got " << entry.getValue();
    }
  }

  if (std::optional<int64_t> blocks = getMinBlocksPerSm()) {
    const TargetInfo &info = *lookupTarget(target);
    if (*blocks < 1 || *blocks > info.maxBlocksPerSm)
      return emitOpError() << "expected min_blocks_per_sm in [1, " << info.maxBlocksPerSm
                           << "], got " << *blocks;
    if (*blocks * threads > info.maxThreadsPerSm)
      return emitOpError() << "min_blocks_per_sm = " << *blocks << " blocks of " << threads
                           << " threads exceed the " << info.maxThreadsPerSm
                           << " threads an SM holds";
  }

  llvm::StringSet<> names;
  for (unsigned index = 0, e = getNumArguments(); index < e; ++index) {
    auto name = getArgAttrOfType<StringAttr>(index, "cake.name");
    if (!name)
      continue;
    if (!isIdentifier(name.getValue()))
      return emitOpError() << "expected parameter names to be identifiers, got '"
                           << name.getValue() << "'";
    if (seen.contains(name.getValue()) || !names.insert(name.getValue()).second)
      return emitOpError() << "parameter name '" << name.getValue()
                           << "' is used twice (parameters and symbols share one namespace)";
  }

  if (!getResultTypes().empty())
    return emitOpError() << "expected no results, got " << getResultTypes().size();
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto tma = dyn_cast<TmaType>(type)) {
      if (failed(verifyTmaParameter(index, tma)))
        return failure();
      continue;
    }
    auto tensor = dyn_cast<GlobalTensorType>(type);
    if (!tensor) {
      if (!type.isInteger(32) && !type.isInteger(64) && !type.isF32() && !type.isF64())
        return emitOpError() << "parameter #" << index
                             << " must be a !cake.tensor, a !cake.tma or a scalar (i32, i64, "
                                "f32, f64), got "
                             << type;
      continue;
    }
    for (ArrayAttr list : {tensor.getShape(), tensor.getStrides()})
      for (Attribute entry : list)
        if (auto name = dyn_cast<StringAttr>(entry); name && !seen.contains(name.getValue()))
          return emitOpError() << "parameter #" << index << " refers to unknown symbol '"
                               << name.getValue() << "'";
  }
  return success();
}

std::optional<unsigned> KernelOp::getParameterIndex(StringRef name) {
  for (unsigned index = 0, e = getNumArguments(); index < e; ++index)
    if (auto attr = getArgAttrOfType<StringAttr>(index, "cake.name"); attr && attr == name)
      return index;
  return std::nullopt;
}

void KernelOp::getTargetRequirements(SmallVectorImpl<TargetRequirement> &requirements) {
  if (getCluster())
    requirements.push_back(TargetRequirement::Cluster);
  if (llvm::any_of(getArgumentTypes(), llvm::IsaPred<TmaType>))
    requirements.push_back(TargetRequirement::Tma);
}

LogicalResult KernelOp::verifyTmaParameter(unsigned index, TmaType tma) {
  auto describes = getArgAttrOfType<StringAttr>(index, "cake.describes");
  if (!describes)
    return emitOpError() << "parameter #" << index
                         << ": a !cake.tma parameter needs {cake.describes = \"<tensor "
                            "parameter name>\"}";
  std::optional<unsigned> tensorIndex = getParameterIndex(describes.getValue());
  auto tensor = tensorIndex ? dyn_cast<GlobalTensorType>(getArgumentTypes()[*tensorIndex])
                            : GlobalTensorType();
  if (!tensor)
    return emitOpError() << "parameter #" << index << " describes '" << describes.getValue()
                         << "', which is not a !cake.tensor parameter of this kernel";
  if (tensor.getShape() != tma.getShape() || tensor.getElementType() != tma.getElementType() ||
      tensor.hasExplicitStrides())
    return emitOpError() << "parameter #" << index << ": expected the descriptor's shape and "
                         << "element type to match the row-major tensor '" << describes.getValue()
                         << "' (" << tensor << ")";
  for (Attribute entry : tma.getShape())
    if (auto name = dyn_cast<StringAttr>(entry); name && !getSymbolIndex(name.getValue()))
      return emitOpError() << "parameter #" << index << " refers to unknown symbol '"
                           << name.getValue() << "'";
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  Block &entry = getBody().front();
  if (entry.empty() || !isa<ReturnOp>(entry.back()))
    return emitOpError() << "expected the body to end with cake.return";
  // setmaxnreg budgets are computed for one resident block (the lowering caps the entry budget).
  std::optional<int64_t> blocks = getMinBlocksPerSm();
  if (blocks && *blocks != 1) {
    WalkResult found = walk([&](RoleOp role) {
      if (!role.getRegs())
        return WalkResult::advance();
      role.emitOpError() << "has a register budget, which needs one block per SM, but the kernel "
                            "asks for min_blocks_per_sm = "
                         << *blocks;
      return WalkResult::interrupt();
    });
    if (found.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ProblemSizeOp
//===----------------------------------------------------------------------===//

LogicalResult ProblemSizeOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel.getSymbolIndex(getSymbol()))
    return emitOpError() << "unknown problem-size symbol '" << getSymbol()
                         << "', the kernel declares [" << llvm::join(kernel.getSymbolNames(), ", ")
                         << "]";
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

static int64_t getAccessWidth(Type registerType) {
  if (auto vector = dyn_cast<VectorType>(registerType))
    return vector.getNumElements();
  return 1;
}

/// The checks loads and stores share: index count, element type, access size, masking.
static LogicalResult verifyAccess(Operation *op, Type memoryType, Type registerType,
                                  size_t numIndices, bool masked) {
  Type element = getElementTypeOrSelf(registerType);
  Type memoryElement;
  unsigned rank;
  if (auto tensor = dyn_cast<GlobalTensorType>(memoryType)) {
    memoryElement = tensor.getElementType();
    rank = tensor.getRank();
  } else {
    auto smem = cast<SmemType>(memoryType);
    memoryElement = smem.getElementType();
    rank = smem.getRank();
  }
  if (numIndices != rank)
    return op->emitOpError() << "expected " << rank << " indices, got " << numIndices;
  if (element != memoryElement)
    return op->emitOpError() << "expected element type " << memoryElement << ", got " << element;

  int64_t width = getAccessWidth(registerType);
  int64_t bytes = width * getElementBytes(element);
  if (bytes > 16 || !llvm::isPowerOf2_64(bytes))
    return op->emitOpError() << "expected an access of 1, 2, 4, 8 or 16 bytes, got " << bytes
                             << " bytes (" << width << " x " << element << ")";

  if (auto tensor = dyn_cast<GlobalTensorType>(memoryType)) {
    if (width > 1 && tensor.hasExplicitStrides()) {
      auto inner = dyn_cast<IntegerAttr>(tensor.getStrides()[rank - 1]);
      if (!inner || inner.getInt() != 1)
        return op->emitOpError()
               << "a vector access needs stride 1 in the innermost dimension of " << memoryType;
    }
    // A static outer stride that is not a multiple of the width misaligns every other row.
    for (unsigned dim = 0; width > 1 && dim + 1 < rank; ++dim) {
      std::optional<int64_t> stride = tensor.getStaticStride(dim);
      if (stride && *stride % width != 0)
        return op->emitOpError() << "expected the stride of dimension " << dim << " (" << *stride
                                 << ") to be a multiple of the vector width (" << width
                                 << "), else rows are misaligned";
    }
    return success();
  }
  auto smem = cast<SmemType>(memoryType);
  if (masked)
    return op->emitOpError() << "'masked' applies to global tensors only; shared buffers have "
                                "static extents";
  if (smem.getShape().back() % width != 0)
    return op->emitOpError() << "expected the innermost extent (" << smem.getShape().back()
                             << ") to be a multiple of the vector width (" << width << ")";
  if (smem.getPad() % width != 0)
    return op->emitOpError() << "expected the pad (" << smem.getPad()
                             << ") to be a multiple of the vector width (" << width
                             << "), else padded rows are misaligned";
  return success();
}

int64_t LoadOp::getWidth() { return getAccessWidth(getResult().getType()); }

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getSource().getType(), getResult().getType(),
                          getIndices().size(), getMasked())))
    return failure();
  if (Value pad = getPad()) {
    if (!getMasked())
      return emitOpError() << "'pad' needs 'masked'";
    Type element = getElementTypeOrSelf(getResult().getType());
    if (pad.getType() != element)
      return emitOpError() << "expected pad of type " << element << ", got " << pad.getType();
  }
  return success();
}

int64_t StoreOp::getWidth() { return getAccessWidth(getValue().getType()); }

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getDest().getType(), getValue().getType(), getIndices().size(),
                      getMasked());
}

// The scalar types come from ODS; indices, element type and `masked` as for a store.
template <typename AtomicOp> static LogicalResult verifyAtomic(AtomicOp op) {
  return verifyAccess(op, op.getDest().getType(), op.getValue().getType(), op.getIndices().size(),
                      op.getMasked());
}
LogicalResult AtomicAddOp::verify() { return verifyAtomic(*this); }
LogicalResult AtomicMinOp::verify() { return verifyAtomic(*this); }
LogicalResult AtomicFetchAddOp::verify() {
  return verifyAccess(*this, getDest().getType(), getValue().getType(), getIndices().size(),
                      /*masked=*/false);
}

bool mlir::cake::isMbarrierArrival(Operation *op) {
  return isa<MbarrierArriveOp, MbarrierArriveExpectTxOp, Tcgen05CommitOp>(op);
}

LogicalResult mlir::cake::verifyPairStores(Operation *op, GlobalTensorType dest, bool masked) {
  Type element = dest.getElementType();
  if (dest.getRank() != 2)
    return op->emitOpError() << "expected a rank-2 destination, got rank " << dest.getRank();
  if (!element.isF32() && !element.isBF16() && !element.isF16())
    return op->emitOpError() << "expected a destination of f32, bf16 or f16, got " << element;
  if (dest.hasExplicitStrides()) {
    auto inner = dyn_cast<IntegerAttr>(dest.getStrides()[1]);
    if (!inner || inner.getInt() != 1)
      return op->emitOpError() << "expected stride 1 in the destination's innermost dimension";
  }
  // Unmasked pair stores need an even row stride; masked ones check alignment at run time.
  std::optional<int64_t> stride = dest.getStaticStride(0);
  if (!masked && stride && *stride % 2 != 0)
    return op->emitOpError() << "expected an even row stride for unmasked pair stores, got "
                             << *stride << " (use 'masked', which checks alignment at run time)";
  return success();
}

//===----------------------------------------------------------------------===//
// Warp reductions
//===----------------------------------------------------------------------===//

static LogicalResult verifyLanes(Operation *op, int64_t lanes) {
  if (!llvm::is_contained({2, 4, 8, 16, 32}, lanes))
    return op->emitOpError() << "expected lanes to be 2, 4, 8, 16 or 32, got " << lanes;
  return success();
}

LogicalResult WarpReduceOp::verify() { return verifyLanes(*this, getLanes()); }
LogicalResult WarpArgReduceOp::verify() { return verifyLanes(*this, getLanes()); }
