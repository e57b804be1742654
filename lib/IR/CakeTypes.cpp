//===- CakeTypes.cpp - cake types -----------------------------------------===//
#include "Cake/IR/CakeTypes.h"
#include "Cake/IR/Target.h"
#include "Cake/IR/CakeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cake;

#define GET_TYPEDEF_CLASSES
#include "Cake/IR/CakeOpsTypes.cpp.inc"

void CakeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Cake/IR/CakeOpsTypes.cpp.inc"
      >();
}

ArrayRef<StringRef> mlir::cake::getKnownTargets() {
  static const SmallVector<StringRef> targets = [] {
    SmallVector<StringRef> names;
    for (const TargetInfo &t : getTargetTable())
      names.push_back(t.name);
    return names;
  }();
  return targets;
}

bool mlir::cake::isKnownTarget(StringRef target) { return lookupTarget(target) != nullptr; }

unsigned mlir::cake::getElementBytes(Type type) {
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

bool mlir::cake::isFp8Type(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

static bool isElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return llvm::is_contained({8u, 32u, 64u}, intType.getWidth());
  // fp8: moved by TMA into tcgen05 MMAs.
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type) || isFp8Type(type);
}

//===----------------------------------------------------------------------===//
// GlobalTensorType
//===----------------------------------------------------------------------===//

/// Parses `[e0, e1, ...]` where each entry is an integer or a bare identifier.
static ParseResult parseExtentList(AsmParser &parser, ArrayAttr &result) {
  SmallVector<Attribute> entries;
  Builder &b = parser.getBuilder();
  auto parseEntry = [&]() -> ParseResult {
    int64_t value;
    OptionalParseResult intResult = parser.parseOptionalInteger(value);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      entries.push_back(b.getI64IntegerAttr(value));
      return success();
    }
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    entries.push_back(b.getStringAttr(name));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
    return failure();
  result = b.getArrayAttr(entries);
  return success();
}

static void printExtentList(AsmPrinter &printer, ArrayAttr list) {
  printer << '[';
  llvm::interleaveComma(list, printer, [&](Attribute entry) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry))
      printer << intAttr.getInt();
    else
      printer << cast<StringAttr>(entry).getValue();
  });
  printer << ']';
}

Type GlobalTensorType::parse(AsmParser &parser) {
  ArrayAttr shape, strides = parser.getBuilder().getArrayAttr({});
  Type elementType;
  if (parser.parseLess() || parseExtentList(parser, shape) || parser.parseComma() ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("strides") || parseExtentList(parser, strides))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return GlobalTensorType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); }, parser.getContext(), shape,
      elementType, strides);
}

void GlobalTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  printExtentList(printer, getShape());
  printer << ", " << getElementType();
  if (hasExplicitStrides()) {
    printer << ", strides ";
    printExtentList(printer, getStrides());
  }
  printer << '>';
}

static LogicalResult verifyExtents(function_ref<InFlightDiagnostic()> emitError, ArrayAttr list,
                                   StringRef what, bool allowZero) {
  for (Attribute entry : list) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry)) {
      if (intAttr.getInt() < 0 || (!allowZero && intAttr.getInt() == 0))
        return emitError() << "expected " << what << " to be positive, got " << intAttr.getInt();
      continue;
    }
    if (!isa<StringAttr>(entry))
      return emitError() << "expected " << what << " to be an integer or a symbol name";
  }
  return success();
}

LogicalResult GlobalTensorType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayAttr shape,
                                 Type elementType, ArrayAttr strides) {
  if (shape.empty())
    return emitError() << "expected a tensor of rank 1 or more";
  if (!isElementType(elementType))
    return emitError() << "expected element type i8, i32, i64, f16, bf16, f32 or f64, got "
                       << elementType;
  if (failed(verifyExtents(emitError, shape, "extent", /*allowZero=*/false)) ||
      failed(verifyExtents(emitError, strides, "stride", /*allowZero=*/true)))
    return failure();
  if (!strides.empty() && strides.size() != shape.size())
    return emitError() << "expected " << shape.size() << " strides, got " << strides.size();
  return success();
}

SmallVector<Attribute> GlobalTensorType::getStrideFactors(unsigned dim) const {
  if (hasExplicitStrides())
    return {getStrides()[dim]};
  SmallVector<Attribute> factors;
  for (unsigned d = dim + 1, e = getRank(); d < e; ++d)
    factors.push_back(getShape()[d]);
  return factors;
}

std::optional<int64_t> GlobalTensorType::getStaticStride(unsigned dim) const {
  int64_t stride = 1;
  for (Attribute factor : getStrideFactors(dim)) {
    auto intAttr = dyn_cast<IntegerAttr>(factor);
    if (!intAttr)
      return std::nullopt;
    stride *= intAttr.getInt();
  }
  return stride;
}

unsigned GlobalTensorType::getElementBytes() const {
  return ::mlir::cake::getElementBytes(getElementType());
}

//===----------------------------------------------------------------------===//
// SmemType
//===----------------------------------------------------------------------===//

Type SmemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  int64_t swizzle = 0, pad = 0;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key != "swizzle" && key != "pad") {
      parser.emitError(parser.getCurrentLocation(), "expected 'swizzle' or 'pad', got '")
          << key << "'";
      return {};
    }
    if (parser.parseInteger(key == "swizzle" ? swizzle : pad))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return SmemType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                              parser.getContext(), shape, elementType, swizzle, pad);
}

void SmemType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t extent : getShape())
    printer << extent << 'x';
  printer << getElementType();
  if (getSwizzle())
    printer << ", swizzle = " << getSwizzle();
  if (getPad())
    printer << ", pad = " << getPad();
  printer << '>';
}

LogicalResult SmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType, int64_t swizzle,
                               int64_t pad) {
  if (pad < 0)
    return emitError() << "expected a non-negative pad, got " << pad;
  if (pad && swizzle)
    return emitError() << "expected either a swizzle or a pad, not both";
  if (shape.empty())
    return emitError() << "expected a shared buffer of rank 1 or more";
  for (int64_t extent : shape)
    if (extent <= 0)
      return emitError() << "expected static positive extents, got " << extent;
  if (!isElementType(elementType))
    return emitError() << "expected element type i8, i32, i64, f16, bf16, f32 or f64, got "
                       << elementType;
  // Shared memory is addressed in 32 bits; a size past that would also wrap the byte counts the
  // verifier compares with the target's limit.
  int64_t bytes = ::mlir::cake::getElementBytes(elementType);
  for (int64_t extent : shape)
    if (llvm::MulOverflow(bytes, extent, bytes) || bytes >= (int64_t(1) << 32))
      return emitError() << "expected a shared buffer of fewer than 2^32 bytes (shared memory "
                            "is addressed in 32 bits)";
  if (!llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitError() << "expected swizzle 32, 64 or 128 (bytes), got " << swizzle;
  if (swizzle) {
    int64_t rowBytes = shape.back() * ::mlir::cake::getElementBytes(elementType);
    if (rowBytes % 16 != 0)
      return emitError() << "expected a swizzled buffer's innermost extent to be a multiple of "
                            "16 bytes, got "
                         << rowBytes << " bytes";
  }
  return success();
}

SmallVector<int64_t> SmemType::getElementStrides() const {
  ArrayRef<int64_t> shape = getShape();
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t stride = 1;
  for (int dim = shape.size() - 1; dim >= 0; --dim) {
    strides[dim] = stride;
    stride *= shape[dim] + (dim == int(shape.size()) - 1 ? getPad() : 0);
  }
  return strides;
}

int64_t SmemType::getSizeInBytes() const {
  return getElementStrides().front() * getShape().front() * getElementBytes();
}

int64_t SmemType::getNumElements() const {
  int64_t n = 1;
  for (int64_t extent : getShape())
    n *= extent;
  return n;
}

unsigned SmemType::getElementBytes() const {
  return ::mlir::cake::getElementBytes(getElementType());
}

//===----------------------------------------------------------------------===//
// MbarriersType, PipelineType
//===----------------------------------------------------------------------===//

Type TmemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  llvm::SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  bool pair = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("pair"))
      return {};
    pair = true;
  }
  if (parser.parseGreater())
    return {};
  if (shape.size() != 2) {
    parser.emitError(at, "expected rows x columns x element type, got ") << shape.size()
                                                                          << " dimensions";
    return {};
  }
  return TmemType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                              parser.getContext(), shape[0], shape[1], elementType, pair);
}

void TmemType::print(AsmPrinter &printer) const {
  printer << '<' << getRows() << 'x' << getColumns() << 'x' << getElementType();
  if (getPair())
    printer << ", pair";
  printer << '>';
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError, int64_t rows,
                               int64_t columns, Type elementType, bool) {
  if (rows != 128)
    return emitError() << "expected 128 rows (the lanes of tensor memory), got " << rows;
  if (columns < 32 || columns > 512 || !llvm::isPowerOf2_64(columns))
    return emitError() << "expected a power of two from 32 to 512 columns, got " << columns;
  if (!elementType.isF32())
    return emitError() << "expected f32 accumulator elements, got " << elementType;
  return success();
}

LogicalResult MbarriersType::verify(function_ref<InFlightDiagnostic()> emitError, int64_t count) {
  if (count < 1 || count > 1024)
    return emitError() << "expected 1 to 1024 mbarriers, got " << count;
  return success();
}

LogicalResult PipelineType::verify(function_ref<InFlightDiagnostic()> emitError, int64_t stages) {
  if (stages < 1 || stages > 32)
    return emitError() << "expected 1 to 32 pipeline stages, got " << stages;
  return success();
}

//===----------------------------------------------------------------------===//
// TmaType
//===----------------------------------------------------------------------===//

Type TmaType::parse(AsmParser &parser) {
  ArrayAttr shape;
  Type elementType;
  SmallVector<int64_t> box;
  int64_t swizzle = 0;
  if (parser.parseLess() || parseExtentList(parser, shape) || parser.parseComma() ||
      parser.parseType(elementType) || parser.parseComma() || parser.parseKeyword("box") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        return parser.parseInteger(box.emplace_back());
      }))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("swizzle") || parser.parseEqual() || parser.parseInteger(swizzle))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return TmaType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                             parser.getContext(), shape, elementType, box, swizzle);
}

void TmaType::print(AsmPrinter &printer) const {
  printer << '<';
  printExtentList(printer, getShape());
  printer << ", " << getElementType() << ", box [";
  llvm::interleaveComma(getBox(), printer);
  printer << ']';
  if (getSwizzle())
    printer << ", swizzle = " << getSwizzle();
  printer << '>';
}

LogicalResult TmaType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayAttr shape,
                              Type elementType, ArrayRef<int64_t> box, int64_t swizzle) {
  if (shape.size() < 1 || shape.size() > 5)
    return emitError() << "expected a TMA tensor of rank 1 to 5, got " << shape.size();
  if (!isElementType(elementType))
    return emitError() << "expected element type i8, i32, i64, f16, bf16, f32 or f64, got "
                       << elementType;
  if (failed(verifyExtents(emitError, shape, "extent", /*allowZero=*/false)))
    return failure();
  if (box.size() != shape.size())
    return emitError() << "expected " << shape.size() << " box extents, got " << box.size();
  for (int64_t extent : box)
    if (extent < 1 || extent > 256)
      return emitError() << "expected TMA box extents in [1, 256], got " << extent;
  int64_t innerBytes = box.back() * ::mlir::cake::getElementBytes(elementType);
  if (innerBytes % 16 != 0)
    return emitError() << "expected the inner box extent to be a multiple of 16 bytes, got "
                       << innerBytes << " bytes";
  if (!llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitError() << "expected swizzle 32, 64 or 128 (bytes), got " << swizzle;
  if (swizzle && innerBytes != swizzle)
    return emitError() << "expected the inner box (" << innerBytes
                       << " bytes) to equal the swizzle span (" << swizzle << " bytes)";
  return success();
}

int64_t TmaType::getBoxBytes() const {
  int64_t bytes = ::mlir::cake::getElementBytes(getElementType());
  for (int64_t extent : getBox())
    bytes *= extent;
  return bytes;
}
