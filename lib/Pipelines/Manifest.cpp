//===- Manifest.cpp - the kernel manifest (host ABI) ----------------------===//
#include "Cake/Pipelines/Manifest.h"
#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/HostNames.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SetVector.h"
#include <set>
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::cake;

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


static llvm::json::Array toJsonArray(ArrayRef<int64_t> values) {
  llvm::json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

using ConstraintSet =
    llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>>;

/// A TMA descriptor the host encodes: the tensor it describes, the box and the swizzle. The
/// tensor map needs every non-innermost stride to be a multiple of 16 bytes.
static llvm::json::Object tmaManifest(KernelOp kernel, unsigned index, TmaType tma,
                                      llvm::json::Object param, ConstraintSet &constraints) {
  param["kind"] = "tma";
  param["dtype"] = getDtypeName(tma.getElementType());
  param["tensor"] = kernel.getArgAttrOfType<StringAttr>(index, "cake.describes").getValue();
  llvm::json::Array box;
  for (int64_t extent : tma.getBox())
    box.push_back(extent);
  param["box"] = std::move(box);
  param["swizzle"] = tma.getSwizzle();
  auto rowMajor = GlobalTensorType::get(kernel.getContext(), tma.getShape(), tma.getElementType(),
                                        ArrayAttr::get(kernel.getContext(), {}));
  unsigned bytes = getElementBytes(tma.getElementType());
  int64_t perRow = 16 / std::min<unsigned>(16, bytes);
  for (unsigned dim = 0; dim + 1 < tma.getRank(); ++dim) {
    bool aligned;
    std::string stride = strideText(rowMajor, dim, perRow, aligned);
    if (!aligned)
      constraints.insert("mod(" + stride + ", " + std::to_string(perRow) + ") == 0");
  }
  return param;
}

static llvm::json::Object kernelManifest(KernelOp kernel) {
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  llvm::json::Array grid;
  for (AffineExpr expr : kernel.getGrid().getResults())
    grid.push_back(topLevel(printManifestExpr(expr, symbols)));
  while (grid.size() < 3)
    grid.push_back("1");

  // Every symbol that sizes a tensor must be positive; vector accesses need their row strides
  // to keep 16-byte (width-element) alignment.
  ConstraintSet constraints;
  llvm::json::Array params;
  Block &entry = kernel.getBody().front();
  for (auto [index, arg] : llvm::enumerate(entry.getArguments())) {
    llvm::json::Object param;
    std::string name = getParamName(kernel, index);
    param["name"] = name;
    if (auto tma = dyn_cast<TmaType>(arg.getType())) {
      params.push_back(tmaManifest(kernel, index, tma, param, constraints));
      continue;
    }
    auto tensor = dyn_cast<GlobalTensorType>(arg.getType());
    if (!tensor) {
      param["kind"] = "scalar";
      param["dtype"] = getDtypeName(arg.getType());
      params.push_back(std::move(param));
      continue;
    }
    param["kind"] = "tensor";
    param["dtype"] = getDtypeName(tensor.getElementType());
    llvm::json::Array shape, strides;
    for (Attribute extent : tensor.getShape()) {
      shape.push_back(getExtentText(extent));
      if (isa<StringAttr>(extent))
        constraints.insert(getExtentText(extent) + " >= 1");
    }
    // Which ops read and write it (TMA copies through a descriptor of it included), and the
    // widest access, whose alignment the strides must allow.
    TensorUse use = getTensorUse(kernel, arg);
    bool reads = use.reads, writes = use.writes;
    int64_t maxWidth = use.maxWidth;
    for (unsigned dim = 0; dim < tensor.getRank(); ++dim) {
      bool aligned;
      std::string stride = strideText(tensor, dim, maxWidth, aligned);
      strides.push_back(stride);
      if (dim + 1 < tensor.getRank() && !aligned)
        constraints.insert("mod(" + stride + ", " + std::to_string(maxWidth) + ") == 0");
    }
    param["shape"] = std::move(shape);
    param["strides"] = std::move(strides);
    param["access"] = reads && writes ? "readwrite" : writes ? "write" : "read";
    params.push_back(std::move(param));
  }
  for (StringRef symbol : symbols)
    params.push_back(llvm::json::Object{{"name", symbol}, {"kind", "symbol"}, {"dtype", "i64"}});

  llvm::json::Array symbolList, constraintList;
  for (StringRef symbol : symbols)
    symbolList.push_back(symbol);
  for (const std::string &constraint : constraints)
    constraintList.push_back(constraint);

  return llvm::json::Object{
      {"entry", kernel.getSymName()},
      {"target", kernel.getTarget()},
      {"block", toJsonArray(kernel.getBlockDims())},
      {"cluster", toJsonArray(kernel.getClusterDims())},
      // Every shared allocation lives in the dynamic segment (see cake-convert-to-nvvm).
      {"dynamic_shared_bytes", kernel.getSharedMemoryLayout().totalBytes + kernel.getDynamicSmem()},
      {"static_shared_bytes", 0},
      {"symbols", std::move(symbolList)},
      {"grid", std::move(grid)},
      {"constraints", std::move(constraintList)},
      {"params", std::move(params)},
  };
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
static llvm::json::Object hangDebugManifest(KernelOp kernel, ArrayRef<Operation *> sites,
                                            unsigned timeoutMs) {
  llvm::json::Array list;
  for (auto [id, site] : llvm::enumerate(sites)) {
    if (site->getParentOfType<KernelOp>() != kernel)
      continue;
    auto role = site->getParentOfType<RoleOp>();
    list.push_back(llvm::json::Object{
        {"id", static_cast<int64_t>(id)},
        {"op", site->getName().getStringRef()},
        {"loc", locationText(site->getLoc())},
        {"role", role ? llvm::json::Value(role.getRoleName()) : llvm::json::Value(nullptr)}});
  }
  return llvm::json::Object{{"timeout_ms", static_cast<int64_t>(timeoutMs)},
                            {"sites", std::move(list)}};
}

FailureOr<llvm::json::Value> mlir::cake::buildManifest(ModuleOp module, unsigned hangTimeoutMs) {
  llvm::json::Array kernels;
  SmallVector<Operation *> sites = collectHangSites(module);
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    llvm::json::Object entry = kernelManifest(kernel);
    if (hangTimeoutMs > 0)
      entry["hang_debug"] = hangDebugManifest(kernel, sites, hangTimeoutMs);
    kernels.push_back(std::move(entry));
  }
  if (kernels.empty())
    return module.emitError() << "no cake.kernel in the module: a manifest needs cake-level IR";
  return llvm::json::Value(llvm::json::Object{
      {"cake_manifest_version", kManifestVersion},
      {"kernels", std::move(kernels)},
  });
}
