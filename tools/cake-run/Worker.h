//===- Worker.h - cake-run's GPU work (runs in the forked worker) -*- C++ -*-===//

#ifndef CAKE_TOOLS_CAKE_RUN_WORKER_H
#define CAKE_TOOLS_CAKE_RUN_WORKER_H

#include "Cake/ABI/Manifest.h"
#include "Cake/Runner/Options.h"
#include "Cake/Runner/Record.h"

#include <array>
#include <string>
#include <vector>

namespace cake::run {

/// Everything the worker needs, prepared and validated by the parent before
/// the fork (so argument errors never reach the GPU).
struct RunContext {
  runner::RunOptions options;
  const abi::KernelDesc *kernel = nullptr;
  abi::ResolvedLaunch launch;
  /// Parameter bytes of each scalar parameter (by parameter index; unused for
  /// other kinds).
  std::vector<std::array<unsigned char, 8>> scalarBytes;
  std::string cubin;    ///< Candidate cubin contents.
  std::string refCubin; ///< Reference cubin contents (empty without --ref).
  std::string refEntry; ///< Reference entry point (without --ref: empty).
  /// Pages shared with the parent (mmap'd before the fork), which the worker maps for the
  /// device when the cubin has the hang-debug report global: the parent reads the report even
  /// after it killed a hung worker. Null when it could not be mapped.
  uint32_t *hangReport = nullptr;
  size_t hangReportBytes = 0;
};

/// Runs, checks and times the kernel on the GPU, filling the device,
/// outputs, inputs_modified and timing fields of `record` (and `error` on
/// failure). Returns the run's status; does not set status/exit_code.
runner::RunStatus runOnDevice(const RunContext &context,
                              runner::Record &record, std::string &error);

} // namespace cake::run

#endif // CAKE_TOOLS_CAKE_RUN_WORKER_H
