//===- Manifest.cpp - the kernel manifest (host ABI) ----------------------===//
#include "Cake/Pipelines/Manifest.h"
#include "Cake/ABI/Manifest.h"
#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/HostNames.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SetVector.h"
#include <set>
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::cake;
namespace abi = ::cake::abi;

std::string mlir::cake::printManifestExpr(AffineExpr expr, ArrayRef<StringRef> symbols) {
  auto recurse = [&](AffineExpr e) { return printManifestExpr(e, symbols); };
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return std::to_string(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()].str();
  case AffineExprKind::DimId:
    return "d" + std::to_string(cast<AffineDimExpr>(expr).getPosition());
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = recurse(binary.getLHS()), rhs = recurse(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "floordiv(" + lhs + ", " + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "ceildiv(" + lhs + ", " + rhs + ")";
  case AffineExprKind::Mod:
    return "mod(" + lhs + ", " + rhs + ")";
  default:
    llvm_unreachable("unknown affine expression kind");
  }
}

/// Strips the outermost parentheses the printer adds around sums and products.
static std::string topLevel(std::string text) {
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < text.size())
        return text;
    }
    return text.substr(1, text.size() - 2);
  }
  return text;
}

/// The stride of `dim` as an expression, and whether it is a static multiple of `width`.
static std::string strideText(GlobalTensorType type, unsigned dim, int64_t width, bool &aligned) {
  SmallVector<Attribute> factors = type.getStrideFactors(dim);
  if (factors.empty()) {
    aligned = width == 1;
    return "1";
  }
  std::string text;
  int64_t constant = 1;
  for (Attribute factor : factors) {
    if (auto intAttr = dyn_cast<IntegerAttr>(factor))
      constant *= intAttr.getInt();
    text += (text.empty() ? "" : " * ") + getExtentText(factor);
  }
  // The op verifier rejects all-static strides that break alignment; symbolic ones need a check.
  aligned = constant % width == 0;
  return text;
}


using ConstraintSet =
    llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>>;

namespace {
/// Fills the host ABI's manifest struct from a kernel. Every text it writes goes through the
/// ABI's own parsers, so a manifest the compiler writes is one cake-run can read; a failure
/// there is a compiler bug, reported on the kernel.
class ManifestBuilder {
public:
  ManifestBuilder(KernelOp kernel, unsigned indexBitwidth)
      : kernel(kernel), indexBitwidth(indexBitwidth) {}

  LogicalResult expr(const std::string &text, abi::Expr &out, bool constraint = false) {
    std::string error;
    if (constraint ? abi::Expr::parseConstraint(text, out, error)
                   : abi::Expr::parse(text, out, error))
      return success();
    return kernel.emitError() << "internal error: the manifest expression '" << text
                              << "' is outside the manifest language: " << error;
  }

  LogicalResult dtype(Type type, abi::DType &out) {
    std::string name = getDtypeName(type).str();
    if (abi::parseDType(name, out))
      return success();
    return kernel.emitError() << "internal error: element type " << type
                              << " has no manifest dtype ('" << name << "')";
  }

  FailureOr<abi::KernelDesc> build();

private:
  LogicalResult tma(unsigned index, TmaType type, abi::ParamDesc &param,
                    ConstraintSet &constraints);
  LogicalResult tensor(unsigned index, GlobalTensorType type, abi::ParamDesc &param,
                       ConstraintSet &constraints);
  LogicalResult boundOffsets(GlobalTensorType type, StringRef name, ConstraintSet &constraints);
  LogicalResult boundThreads(unsigned dim, AffineExpr grid, const std::string &text,
                             ConstraintSet &constraints);
  KernelOp kernel;
  unsigned indexBitwidth;
};
} // namespace

/// A TMA descriptor the host encodes: the tensor it describes, the box and the swizzle. The
/// tensor map needs every non-innermost stride to be a multiple of 16 bytes.
LogicalResult ManifestBuilder::tma(unsigned index, TmaType type, abi::ParamDesc &param,
                                   ConstraintSet &constraints) {
  param.kind = abi::ParamKind::Tma;
  if (failed(dtype(type.getElementType(), param.dtype)))
    return failure();
  param.tensorName =
      kernel.getArgAttrOfType<StringAttr>(index, "cake.describes").getValue().str();
  param.box.assign(type.getBox().begin(), type.getBox().end());
  param.swizzle = type.getSwizzle();
  auto rowMajor = GlobalTensorType::get(kernel.getContext(), type.getShape(),
                                        type.getElementType(),
                                        ArrayAttr::get(kernel.getContext(), {}));
  unsigned bytes = getElementBytes(type.getElementType());
  int64_t perRow = 16 / std::min<unsigned>(16, bytes);
  for (unsigned dim = 0; dim + 1 < type.getRank(); ++dim) {
    bool aligned;
    std::string stride = strideText(rowMajor, dim, perRow, aligned);
    if (!aligned)
      constraints.insert("mod(" + stride + ", " + std::to_string(perRow) + ") == 0");
  }
  return success();
}

/// A global tensor: its extents (each symbolic one must be positive), its strides (vector
/// accesses need rows that keep 16-byte alignment) and whether the kernel reads or writes it
/// (TMA copies through a descriptor of it included).
LogicalResult ManifestBuilder::tensor(unsigned index, GlobalTensorType type,
                                      abi::ParamDesc &param, ConstraintSet &constraints) {
  param.kind = abi::ParamKind::Tensor;
  if (failed(dtype(type.getElementType(), param.dtype)))
    return failure();
  for (Attribute extent : type.getShape()) {
    if (failed(expr(getExtentText(extent), param.shape.emplace_back())))
      return failure();
    if (isa<StringAttr>(extent))
      constraints.insert(getExtentText(extent) + " >= 1");
  }
  TensorUse use = getTensorUse(kernel, kernel.getBody().front().getArgument(index));
  for (unsigned dim = 0; dim < type.getRank(); ++dim) {
    bool aligned;
    std::string stride = strideText(type, dim, use.maxWidth, aligned);
    if (failed(expr(stride, param.strides.emplace_back())))
      return failure();
    if (dim + 1 < type.getRank() && !aligned)
      constraints.insert("mod(" + stride + ", " + std::to_string(use.maxWidth) + ") == 0");
  }
  param.access = use.reads && use.writes ? abi::Access::ReadWrite
                 : use.writes            ? abi::Access::Write
                                         : abi::Access::Read;
  return indexBitwidth == 32 ? boundOffsets(type, getParamName(kernel, index), constraints)
                             : success();
}

/// Kernels compiled with a 32-bit `index` compute element offsets in i32. The bound leaves a
/// factor of two below 2^31, so offsets up to twice a tensor's extent (a tail tile's rows past
/// the end, masked off) cannot wrap.
static constexpr int64_t kIndex32OffsetBound = int64_t(1) << 30;

/// The constraint that keeps the threads of grid dimension `dim` (blocks times block size) within
/// kIndex32OffsetBound, so a global thread id (block id * block size + thread id) and a position
/// up to twice it fit in i32. Nothing for a static grid within it; an error beyond it.
LogicalResult ManifestBuilder::boundThreads(unsigned dim, AffineExpr grid, const std::string &text,
                                            ConstraintSet &constraints) {
  SmallVector<int64_t, 3> block = kernel.getBlockDims();
  int64_t threadsPerBlock = dim < block.size() ? block[dim] : 1;
  auto constant = dyn_cast_or_null<AffineConstantExpr>(grid);
  if (grid && !constant) {
    // A sum needs parentheses before the product; calls and products print as they are.
    std::string threads = text;
    if (threadsPerBlock != 1)
      threads = (grid.getKind() == AffineExprKind::Add ? "(" + text + ")" : text) + " * " +
                std::to_string(threadsPerBlock);
    constraints.insert(threads + " <= " + std::to_string(kIndex32OffsetBound));
    return success();
  }
  int64_t blocks = constant ? constant.getValue() : 1;
  if (blocks <= kIndex32OffsetBound / threadsPerBlock)
    return success();
  return kernel.emitError() << "index-bitwidth=32: grid dimension " << dim << " runs more than "
                            << "2^30 threads; compile it with a 64-bit index";
}

/// The constraint that keeps `type`'s elements below kIndex32OffsetBound: the product of the
/// extents for a row-major tensor, else the largest offset, sum((extent - 1) * stride). Added when
/// it has symbols; when it has none it is judged here (by the ABI's own evaluator): nothing if it
/// holds, an error if it does not or overflows 64 bits.
LogicalResult ManifestBuilder::boundOffsets(GlobalTensorType type, StringRef name,
                                            ConstraintSet &constraints) {
  bool rowMajor = !type.hasExplicitStrides(), symbolic = false;
  std::string text;
  for (unsigned dim = 0; dim < type.getRank(); ++dim) {
    Attribute extent = type.getShape()[dim];
    symbolic |= isa<StringAttr>(extent);
    for (Attribute factor : type.getStrideFactors(dim))
      symbolic |= isa<StringAttr>(factor);
    bool aligned;
    std::string term = rowMajor ? getExtentText(extent)
                                : "(" + getExtentText(extent) + " - 1) * (" +
                                      strideText(type, dim, 1, aligned) + ")";
    text += (text.empty() ? "" : rowMajor ? " * " : " + ") + term;
  }
  std::string constraint = (text.empty() ? (rowMajor ? "1" : "0") : text) +
                           (rowMajor ? " <= " : " < ") + std::to_string(kIndex32OffsetBound);
  if (symbolic) {
    constraints.insert(constraint);
    return success();
  }
  abi::Expr check;
  std::string error;
  int64_t holds = 0;
  if (abi::Expr::parseConstraint(constraint, check, error) && check.evaluate({}, holds, error) &&
      holds)
    return success();
  return kernel.emitError() << "index-bitwidth=32: tensor '" << name << "' spans more than 2^30 "
                            << "elements; compile it with a 64-bit index";
}

FailureOr<abi::KernelDesc> ManifestBuilder::build() {
  abi::KernelDesc desc;
  desc.entry = kernel.getSymName().str();
  desc.target = kernel.getTarget().str();
  llvm::copy(kernel.getBlockDims(), desc.block.begin());
  llvm::copy(kernel.getClusterDims(), desc.cluster.begin());
  // Every shared allocation lives in the dynamic segment (see cake-convert-to-nvvm).
  desc.dynamicSharedBytes = kernel.getSharedMemoryLayout().totalBytes + kernel.getDynamicSmem();
  desc.staticSharedBytes = 0;
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  for (StringRef symbol : symbols)
    desc.symbols.push_back(symbol.str());
  ArrayRef<AffineExpr> grid = kernel.getGrid().getResults();
  ConstraintSet constraints;
  // A specialized symbol is a constant in the code: the host must pass that size and no other.
  for (StringRef symbol : symbols)
    if (std::optional<int64_t> fixed = kernel.getSpecializedSize(symbol))
      constraints.insert(symbol.str() + " == " + std::to_string(*fixed));
  for (unsigned i = 0; i < 3; ++i) {
    std::string text = i < grid.size() ? topLevel(printManifestExpr(grid[i], symbols)) : "1";
    if (failed(expr(text, desc.grid[i])))
      return failure();
    if (indexBitwidth == 32 &&
        failed(boundThreads(i, i < grid.size() ? grid[i] : AffineExpr(), text, constraints)))
      return failure();
  }

  Block &entry = kernel.getBody().front();
  for (auto [index, arg] : llvm::enumerate(entry.getArguments())) {
    abi::ParamDesc &param = desc.params.emplace_back();
    param.name = getParamName(kernel, index);
    LogicalResult filled = success();
    if (auto type = dyn_cast<TmaType>(arg.getType()))
      filled = tma(index, type, param, constraints);
    else if (auto type = dyn_cast<GlobalTensorType>(arg.getType()))
      filled = tensor(index, type, param, constraints);
    else {
      param.kind = abi::ParamKind::Scalar;
      filled = dtype(arg.getType(), param.dtype);
    }
    if (failed(filled))
      return failure();
  }
  for (StringRef symbol : symbols) {
    abi::ParamDesc &param = desc.params.emplace_back();
    param.name = symbol.str();
    param.kind = abi::ParamKind::Symbol;
    param.dtype = abi::DType::I64;
  }
  for (const std::string &constraint : constraints)
    if (failed(expr(constraint, desc.constraints.emplace_back(), /*constraint=*/true)))
      return failure();
  return desc;
}

/// "file:line:col" of the first file location in `loc`; "unknown" without one.
static std::string locationText(Location loc) {
  std::string text = "unknown";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
              std::to_string(file.getColumn()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// The bounded waits of `kernel`: ids as the hang-debug lowering numbers them.
static void addHangSites(KernelOp kernel, ArrayRef<Operation *> sites, unsigned timeoutMs,
                         abi::KernelDesc &desc) {
  desc.hangTimeoutMs = timeoutMs;
  for (auto [id, site] : llvm::enumerate(sites)) {
    if (site->getParentOfType<KernelOp>() != kernel)
      continue;
    auto role = site->getParentOfType<RoleOp>();
    desc.hangSites.push_back({static_cast<int64_t>(id), site->getName().getStringRef().str(),
                              locationText(site->getLoc()),
                              role ? role.getRoleName().str() : std::string()});
  }
}

FailureOr<std::string> mlir::cake::buildManifest(ModuleOp module, unsigned hangTimeoutMs,
                                                 unsigned indexBitwidth) {
  abi::Manifest manifest;
  manifest.version = abi::kManifestVersion;
  SmallVector<Operation *> sites = collectHangSites(module);
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    FailureOr<abi::KernelDesc> desc = ManifestBuilder(kernel, indexBitwidth).build();
    if (failed(desc))
      return failure();
    desc->indexBits = indexBitwidth;
    // The op verifier keeps every global access after the wait: the launch may overlap.
    desc->programmaticLaunch = kernel.waitsForGridDependencies();
    if (hangTimeoutMs > 0)
      addHangSites(kernel, sites, hangTimeoutMs, *desc);
    manifest.kernels.push_back(std::move(*desc));
  }
  if (manifest.kernels.empty())
    return module.emitError() << "no cake.kernel in the module: a manifest needs cake-level IR";
  return abi::writeManifest(manifest);
}
