//===- HangReport.h - the record the hang-debug lowering leaves -*- C++ -*-===//
//
// Decodes what a kernel compiled with `--hang-timeout-ms=N` leaves when a wait expires (the
// layout: Cake/ABI/HangLayout.h, shared with the lowering). The site id indexes the manifest's
// hang_debug.sites.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_RUNNER_HANGREPORT_H
#define CAKE_RUNNER_HANGREPORT_H

#include "Cake/ABI/HangLayout.h"
#include "llvm/Support/JSON.h"
#include "Cake/ABI/Manifest.h"

#include <cstdint>
#include <string>

namespace cake::runner {

// The host ABI's names the runner uses throughout.
using abi::KernelDesc;
using abi::kHangBufferBytes;
using abi::kHangReportMagic;
using abi::kHangReportSymbol;
using abi::kHangReportWords;
using abi::kHangTableEntries;
using abi::kHangTableOffsetBytes;

/// Decodes `words` (kHangReportWords of them). Returns false when they hold no complete record.
/// Otherwise fills `report` ({site, op, loc, role, block, thread, warp, parity, timeout_ms}) and
/// a one-line `message` naming the stalled op.
bool decodeHangReport(const uint32_t *words, const KernelDesc &kernel,
                      llvm::json::Object &report,
                      std::string &message);

/// Reads the barrier table at `words` (kHangTableEntries pairs): the warps still at a block,
/// named or cluster barrier, grouped by site ([{site, op, loc, role, warps, blocks}], blocks
/// capped at 16). Returns false when no warp is at a barrier; `summary` says where they wait.
bool decodeHangTable(const uint32_t *words, const KernelDesc &kernel,
                     llvm::json::Array &barriers,
                     std::string &summary);

} // namespace cake::runner

#endif // CAKE_RUNNER_HANGREPORT_H
