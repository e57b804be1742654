//===- IRJson.cpp - a structured (JSON) view of IR -------------------------===//
#include "Cake/Analysis/IRJson.h"
#include "Cake/Analysis/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEPRINTIRJSONPASS
#include "Cake/Analysis/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
class IRJsonWriter {
public:
  llvm::json::Array ops(Block &block) {
    llvm::json::Array out;
    for (Operation &op : block)
      out.push_back(this->op(op));
    return out;
  }

  llvm::json::Object op(Operation &op) {
    llvm::json::Array operands;
    for (Value operand : op.getOperands())
      operands.push_back(id(operand));
    llvm::json::Array results;
    for (Value result : op.getResults())
      results.push_back(define(result));
    llvm::json::Object attributes, values;
    for (NamedAttribute attr : op.getAttrs()) {
      attributes[attr.getName().str()] = print(attr.getValue());
      if (std::optional<llvm::json::Value> plain = value(attr.getValue()))
        values[attr.getName().str()] = std::move(*plain);
    }
    llvm::json::Array regions;
    for (Region &region : op.getRegions()) {
      llvm::json::Array blocks;
      for (Block &block : region) {
        llvm::json::Array arguments;
        for (BlockArgument arg : block.getArguments())
          arguments.push_back(define(arg));
        blocks.push_back(llvm::json::Object{{"arguments", std::move(arguments)},
                                            {"ops", ops(block)}});
      }
      regions.push_back(std::move(blocks));
    }
    return llvm::json::Object{{"name", op.getName().getStringRef().str()},
                              {"loc", location(op.getLoc())},
                              {"operands", std::move(operands)},
                              {"results", std::move(results)},
                              {"attributes", std::move(attributes)},
                              {"values", std::move(values)},
                              {"regions", std::move(regions)}};
  }

  /// An attribute that is plain data as JSON: booleans, integers, finite floats, strings and arrays of
  /// them (`array<i64: ...>` included); nothing for anything else (types, maps, dialect
  /// attributes), which `attributes` has printed.
  static std::optional<llvm::json::Value> value(Attribute attr) {
    if (auto b = dyn_cast<BoolAttr>(attr))
      return llvm::json::Value(b.getValue());
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      if (i.getType().isIndex() || i.getValue().getSignificantBits() <= 64)
        return llvm::json::Value(i.getValue().getSExtValue());
      return std::nullopt;
    }
    if (auto f = dyn_cast<FloatAttr>(attr)) // JSON has no infinity or NaN: printed only.
      return std::isfinite(f.getValueAsDouble())
                 ? std::optional<llvm::json::Value>(f.getValueAsDouble())
                 : std::nullopt;
    if (auto s = dyn_cast<StringAttr>(attr))
      return llvm::json::Value(s.getValue().str());
    if (auto a = dyn_cast<DenseI64ArrayAttr>(attr))
      return llvm::json::Value(llvm::json::Array(a.asArrayRef()));
    if (auto a = dyn_cast<DenseI32ArrayAttr>(attr))
      return llvm::json::Value(llvm::json::Array(a.asArrayRef()));
    if (auto a = dyn_cast<ArrayAttr>(attr)) {
      llvm::json::Array out;
      for (Attribute element : a) {
        std::optional<llvm::json::Value> v = value(element);
        if (!v)
          return std::nullopt;
        out.push_back(std::move(*v));
      }
      return llvm::json::Value(std::move(out));
    }
    return std::nullopt;
  }

private:
  llvm::json::Object define(Value value) {
    return llvm::json::Object{{"id", id(value)}, {"type", print(value.getType())}};
  }

  /// "%N", numbered at first sight (a use before its definition, as in a graph region, numbers it).
  std::string id(Value value) {
    auto [it, inserted] = ids.try_emplace(value, ids.size());
    return "%" + std::to_string(it->second);
  }

  template <typename T>
  static std::string print(T entity) {
    std::string text;
    llvm::raw_string_ostream os(text);
    entity.print(os);
    return text;
  }

  static llvm::json::Value location(Location loc) {
    auto file = loc->findInstanceOf<FileLineColLoc>();
    if (!file)
      return nullptr;
    return llvm::json::Object{{"file", file.getFilename().str()},
                              {"line", static_cast<int64_t>(file.getLine())},
                              {"col", static_cast<int64_t>(file.getColumn())}};
  }

  DenseMap<Value, unsigned> ids;
};

struct CakePrintIRJsonPass : cake::impl::CakePrintIRJsonPassBase<CakePrintIRJsonPass> {
  void runOnOperation() override {
    llvm::outs() << llvm::formatv("{0:2}", getIRAsJson(getOperation())) << "\n";
    llvm::outs().flush();
    markAllAnalysesPreserved();
  }
};
} // namespace

llvm::json::Value mlir::cake::getIRAsJson(Operation *root) {
  IRJsonWriter writer;
  llvm::json::Array ops;
  for (Region &region : root->getRegions())
    for (Block &block : region)
      for (llvm::json::Value &op : writer.ops(block))
        ops.push_back(std::move(op));
  return llvm::json::Object{{"schema", "cake-ir"}, {"version", kIRJsonVersion}, {"ops", std::move(ops)}};
}
