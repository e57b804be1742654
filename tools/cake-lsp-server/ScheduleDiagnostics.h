//===- ScheduleDiagnostics.h - cake-verify findings as LSP data -*- C++ -*-===//
//
// What cake-lsp-server adds to MLIR's language server: the findings of cake-verify on a document
// as LSP diagnostics (rule id as the code, notes as related information, the fix hint kept in
// `data`), and a code action per finding that writes its hint above the op.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TOOLS_CAKE_LSP_SERVER_SCHEDULEDIAGNOSTICS_H
#define CAKE_TOOLS_CAKE_LSP_SERVER_SCHEDULEDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace mlir::cake::lsp {

/// The `source` of every diagnostic this file makes.
inline constexpr llvm::StringLiteral kFindingSource = "cake-verify";

/// cake-verify's findings on `text` (the document at `uri`) as LSP Diagnostic objects. Empty
/// when the text does not parse or verify (MLIR's server reports those errors itself).
llvm::json::Array scheduleDiagnostics(llvm::StringRef uri, llvm::StringRef text);

/// Code actions for the cake-verify diagnostics among `diagnostics` (a codeAction request's
/// context): a quick fix per finding that inserts "// fix: <hint>" above the op's line, indented
/// as that line.
llvm::json::Array fixHintActions(llvm::StringRef uri, llvm::StringRef text,
                                 const llvm::json::Array &diagnostics);

} // namespace mlir::cake::lsp

#endif // CAKE_TOOLS_CAKE_LSP_SERVER_SCHEDULEDIAGNOSTICS_H
