//===- HangReport.h - the record the hang-debug lowering leaves -*- C++ -*-===//
//
// A kernel compiled with `--hang-timeout-ms=N` bounds every mbarrier wait. The first thread whose
// wait expires writes one record to a host-mapped buffer, whose device address the host stores
// in the kernel module's global kHangReportSymbol, and traps. The record is kHangReportWords
// little-endian u32 words: magic (written last), site id, block x, y, z, linear thread id, parity
// waited for, timeout in ms. The site id indexes the manifest's hang_debug.sites.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_RUNNER_HANGREPORT_H
#define CAKE_RUNNER_HANGREPORT_H

#include "Cake/Runner/Json.h"
#include "Cake/Runner/Manifest.h"

#include <cstdint>
#include <string>

namespace cake::runner {

/// Mirrors kHangReportSymbol / kHangReportMagic of include/Cake/Conversion/CakeToNVVM.h (the
/// runner links no MLIR); test/Conversion/hang-debug.mlir checks the lowering's side.
constexpr const char *kHangReportSymbol = "__cake_hang_report";
constexpr uint32_t kHangReportMagic = 0xCA4E4A6E;
constexpr size_t kHangReportWords = 8;
/// The barrier table after the record (kHangTableOffset etc. in CakeToNVVM.h): one 8-byte entry
/// {site + 1 (0: not at a barrier), block x} per hardware warp slot, %smid * 64 + %warpid.
constexpr size_t kHangTableOffsetBytes = 4096;
constexpr size_t kHangTableEntries = 256 * 64;
/// The whole host-mapped buffer: the record's page and the table.
constexpr size_t kHangBufferBytes = kHangTableOffsetBytes + kHangTableEntries * 8;

/// Decodes `words` (kHangReportWords of them). Returns false when they hold no complete record.
/// Otherwise fills `report` ({site, op, loc, role, block, thread, warp, parity, timeout_ms}) and
/// a one-line `message` naming the stalled op.
bool decodeHangReport(const uint32_t *words, const KernelDesc &kernel, JsonValue &report,
                      std::string &message);

/// Reads the barrier table at `words` (kHangTableEntries pairs): the warps still at a block,
/// named or cluster barrier, grouped by site ([{site, op, loc, role, warps, blocks}], blocks
/// capped at 16). Returns false when no warp is at a barrier; `summary` says where they wait.
bool decodeHangTable(const uint32_t *words, const KernelDesc &kernel, JsonValue &barriers,
                     std::string &summary);

} // namespace cake::runner

#endif // CAKE_RUNNER_HANGREPORT_H
