//===- ParseGuard.h - inputs MLIR 22's parser crashes on, reported first --*- C++ -*-===//
//
// A few inputs crash upstream MLIR 22's parser instead of giving an error (bugs upstream, not
// CAKE's): a dense array of `index` (`array<index: 1>`: Parser::parseDenseArrayAttr asks the
// index type for a float width and dereferences null) and brackets nested thousands deep (the
// recursive-descent parser overflows the stack). Every CAKE tool that parses text (cake-opt,
// cake-translate, cake-lsp-server, the C API, cake-fuzz) looks for them first and reports the
// first one as a located error, so bad input never crashes a tool.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_IR_PARSEGUARD_H
#define CAKE_IR_PARSEGUARD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace mlir::cake {

/// The deepest bracket nesting ((, [, {, <) the tools parse: legal IR stays far below it, and
/// MLIR 22's parser overflows an 8 MB stack between 4,000 and 8,000 levels.
constexpr int kMaxParseNesting = 1000;

/// A construct of the text the parser would crash on: its byte offset and what it is.
struct UnparseableInput {
  size_t offset;
  std::string message;
};

/// The first construct of `text` that MLIR 22's parser crashes on, outside comments and string
/// literals; nullopt when there is none.
std::optional<UnparseableInput> findUnparseableInput(llvm::StringRef text);

/// Reports the first such construct of the main buffer of `sourceMgr` as an error at its location
/// (through `context`'s diagnostic handlers); false when there is none.
bool reportUnparseableInput(llvm::SourceMgr &sourceMgr, MLIRContext *context);

/// parseSourceFile<ModuleOp> of the main buffer of `sourceMgr`, except that a construct the
/// parser would crash on is reported as an error at its location (through the context's
/// diagnostic handlers) and nothing is parsed.
OwningOpRef<ModuleOp> parseGuardedSourceFile(llvm::SourceMgr &sourceMgr,
                                             const ParserConfig &config);

/// The same for a string (the C API, rule files).
OwningOpRef<ModuleOp> parseGuardedSourceString(llvm::StringRef source, const ParserConfig &config,
                                               llvm::StringRef sourceName);

} // namespace mlir::cake

#endif // CAKE_IR_PARSEGUARD_H
