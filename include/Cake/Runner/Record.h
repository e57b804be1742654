//===- Record.h - cake-run's output record ----------------------*- C++ -*-===//
//
// The one JSON object cake-run prints (docs/Runner.md): llvm::json values under
// keys kept in the order they were first set, so the record reads the same in
// every run (status, exit_code and error first).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_RUNNER_RECORD_H
#define CAKE_RUNNER_RECORD_H

#include "llvm/Support/JSON.h"

#include <string>
#include <utility>
#include <vector>

namespace cake::runner {

class Record {
public:
  /// Sets `key`, keeping its place when it is already there.
  void set(llvm::StringRef key, llvm::json::Value value);
  /// The value of `key`, or null when unset.
  const llvm::json::Value *find(llvm::StringRef key) const;
  /// Takes every member of `object` (a record read back from the worker).
  void merge(const llvm::json::Object &object);
  /// One line of JSON.
  std::string toString() const;

private:
  std::vector<std::pair<std::string, llvm::json::Value>> fields;
};

} // namespace cake::runner

#endif // CAKE_RUNNER_RECORD_H
