//===- ParseGuard.cpp - inputs MLIR 22's parser crashes on, reported first ----===//
#include "Cake/IR/ParseGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {
/// A character that can continue a bare identifier or keyword, or begin a prefixed one (#a, !a,
/// %a, @a, ^a): `array` right after one is not the `array` keyword.
bool joinsIdentifier(char c) {
  return llvm::isAlnum(c) || llvm::is_contained(llvm::StringRef("_$.#!%@^"), c);
}

/// `text` from `at` on, past whitespace and `//` comments (the lexer skips both between tokens).
size_t skipTrivia(llvm::StringRef text, size_t at) {
  while (at < text.size()) {
    if (llvm::isSpace(text[at]))
      ++at;
    else if (text.substr(at).starts_with("//"))
      at = std::min(text.size(), text.find('\n', at));
    else
      break;
  }
  return at;
}

/// Whether the `array` keyword at `at` opens a dense array of index: `array` `<` `index`.
bool opensIndexArray(llvm::StringRef text, size_t at) {
  if (at > 0 && joinsIdentifier(text[at - 1]))
    return false;
  size_t next = at + strlen("array");
  if (next < text.size() && joinsIdentifier(text[next]))
    return false;
  next = skipTrivia(text, next);
  if (next >= text.size() || text[next] != '<')
    return false;
  next = skipTrivia(text, next + 1);
  if (!text.substr(next).starts_with("index"))
    return false;
  next += strlen("index");
  return next >= text.size() || !joinsIdentifier(text[next]);
}
} // namespace

std::optional<cake::UnparseableInput> cake::findUnparseableInput(llvm::StringRef text) {
  int depth = 0;
  for (size_t at = 0; at < text.size(); ++at) {
    char c = text[at];
    if (c == '"') { // a string literal: to the closing quote, past escapes
      for (++at; at < text.size() && text[at] != '"' && text[at] != '\n'; ++at)
        if (text[at] == '\\')
          ++at;
      continue;
    }
    if (c == '/' && text.substr(at).starts_with("//")) {
      at = std::min(text.size(), text.find('\n', at));
      continue;
    }
    if (c == 'a' && text.substr(at).starts_with("array") && opensIndexArray(text, at))
      return UnparseableInput{at, "a dense array of 'index' (array<index...>) is not supported; "
                                  "use i64 (MLIR 22's parser would crash on it)"};
    bool opens = c == '(' || c == '[' || c == '{' || c == '<';
    // `->` and `>=` are not closing brackets.
    bool closes = c == ')' || c == ']' || c == '}' ||
                  (c == '>' && (at == 0 || text[at - 1] != '-') &&
                   !text.substr(at + 1).starts_with("="));
    if (opens && ++depth > kMaxParseNesting)
      return UnparseableInput{at, "brackets nested more than " + std::to_string(kMaxParseNesting) +
                                      " deep (MLIR's parser would run out of stack)"};
    if (closes && depth > 0)
      --depth;
  }
  return std::nullopt;
}

bool cake::reportUnparseableInput(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<UnparseableInput> found = findUnparseableInput(buffer->getBuffer());
  if (!found)
    return false;
  auto [line, col] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + found->offset));
  emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), line, col))
      << found->message;
  return true;
}

OwningOpRef<ModuleOp> cake::parseGuardedSourceFile(llvm::SourceMgr &sourceMgr,
                                                   const ParserConfig &config) {
  if (reportUnparseableInput(sourceMgr, config.getContext()))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

OwningOpRef<ModuleOp> cake::parseGuardedSourceString(llvm::StringRef source,
                                                     const ParserConfig &config,
                                                     llvm::StringRef sourceName) {
  // What parseSourceString does, with the guard in between.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(source, sourceName,
                                                                /*RequiresNullTerminator=*/false),
                               llvm::SMLoc());
  return parseGuardedSourceFile(sourceMgr, config);
}
