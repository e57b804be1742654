//===- Options.h - cake-run command line and exit statuses ------*- C++ -*-===//
//
// The parts of cake-run that need no GPU, kept here so they are unit-tested:
// the command line, the exit statuses and scalar-argument encoding.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_RUNNER_OPTIONS_H
#define CAKE_RUNNER_OPTIONS_H

#include "Cake/ABI/DType.h"
#include "Cake/ABI/Expr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cake::runner {

// The host ABI's names the runner uses throughout.
using abi::DType;
using abi::SymbolMap;

/// cake-run's outcome; the value is the process exit code (docs/Runner.md).
enum class RunStatus {
  Ok = 0,
  WrongResult = 1,
  BadArguments = 2,
  LaunchFailure = 3,
  Timeout = 4,
  NoDevice = 5,
};

/// "ok", "wrong_result", "bad_arguments", "launch_failure", "timeout",
/// "no_device".
const char *runStatusName(RunStatus status);

/// cake-run's command line.
struct RunOptions {
  std::string cubin;
  std::string manifest;
  std::string kernel;  ///< Empty: the manifest's only kernel.
  SymbolMap sizes;
  std::map<std::string, std::string> scalars; ///< name -> value text.
  /// Input tensors read from raw files (name -> path) instead of seeded fills.
  std::map<std::string, std::string> inputFiles;
  /// When set, each output tensor's logical elements are written to DIR/NAME.bin.
  std::string outputDir;
  /// The declared roles (--outputs, --inouts): when either is given, these
  /// tensors are the outputs (poisoned / filled, then compared) and every other
  /// tensor is an input, whatever the manifest's `access` says.
  std::vector<std::string> outputs, inouts;
  uint64_t seed = 1;
  std::string ref;
  std::string refEntry; ///< Empty: "<entry>_ref".
  double rtol = 1e-5;
  int64_t warmup = 10;
  /// Warm-up continues (in rounds of `warmup` launches) until the GPU has run the
  /// candidate this long: an idle GPU sits at a low clock and needs sustained work to
  /// reach its boost clock (a 0.38 ms kernel timed at 0.73 ms after 10 launches).
  double warmupMs = 25;
  /// How each timed iteration is measured: "events" (an event pair around one
  /// launch) or "graph" (a CUDA graph of launches replayed between events, the
  /// time per launch: no host launch latency in microsecond kernels, as a library
  /// benchmark that replays graphs measures them).
  std::string timer = "events";
  int64_t iters = 50;
  double timeoutSeconds = 120; ///< 0 disables the timeout.
  bool noTime = false;
  /// --check-sizes: only evaluate the manifest for --sizes (constraints, extents, grid) and print
  /// the record; no cubin, scalars or GPU needed.
  bool checkSizes = false;
  int64_t device = 0;
};

/// Parses argv (without argv[0]) with llvm::cl: "--opt value" or "--opt=value",
/// one dash or two; --sizes, --scalar, --input, --outputs and --inouts take
/// comma-separated lists and may repeat. Each call starts from the defaults.
/// On a bad command line returns false with `error` (one line) and writes
/// nothing to stderr. --help and --version print on stdout and exit(0).
bool parseRunOptions(int argc, const char *const *argv, RunOptions &out,
                     std::string &error);

/// Parses "N=1000,D=128" into `out` (adding to it); duplicates are errors.
bool parseSizeList(std::string_view text, SymbolMap &out, std::string &error);

/// Encodes the text of a scalar argument as the 4- or 8-byte value of `type`
/// (i32 i64 f32 f64) into `bytes`, returning its size in `size`.
bool encodeScalar(std::string_view text, DType type, unsigned char bytes[8],
                  size_t &size, std::string &error);

} // namespace cake::runner

#endif // CAKE_RUNNER_OPTIONS_H
