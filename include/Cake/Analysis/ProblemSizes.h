//===- ProblemSizes.h - problem sizes given on a command line ---*- C++ -*-===//
#ifndef CAKE_ANALYSIS_PROBLEMSIZES_H
#define CAKE_ANALYSIS_PROBLEMSIZES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::cake {

/// Parses `M=8192,N=8192` (the `sizes=` option of the print passes); an error names the bad
/// entry.
llvm::Expected<llvm::StringMap<int64_t>> parseProblemSizes(llvm::StringRef text);

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_PROBLEMSIZES_H
