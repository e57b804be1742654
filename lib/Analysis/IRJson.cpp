//===- IRJson.cpp - a structured (JSON) view of IR -------------------------===//
#include "Cake/Analysis/IRJson.h"
#include "Cake/Analysis/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

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
    llvm::json::Object attributes;
    for (NamedAttribute attr : op.getAttrs())
      attributes[attr.getName().str()] = print(attr.getValue());
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
                              {"regions", std::move(regions)}};
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
