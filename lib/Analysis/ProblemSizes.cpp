//===- ProblemSizes.cpp - problem sizes given on a command line ------------===//
#include "Cake/Analysis/ProblemSizes.h"

#include "llvm/ADT/SmallVector.h"

llvm::Expected<llvm::StringMap<int64_t>> mlir::cake::parseProblemSizes(llvm::StringRef text) {
  llvm::StringMap<int64_t> sizes;
  llvm::SmallVector<llvm::StringRef> entries;
  text.split(entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : entries) {
    auto [key, value] = entry.trim().split('=');
    int64_t n;
    if (key.empty() || value.trim().getAsInteger(10, n) || n < 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "invalid sizes entry '" + entry +
                                         "': expected NAME=VALUE with VALUE a non-negative "
                                         "integer");
    sizes[key.trim()] = n;
  }
  return sizes;
}
