//===- HangLayout.h - the hang report's layout, compiler and runner alike -*- C++ -*-===//
//
// Part of the host ABI: facts the compiler (the hang-debug lowering, lib/Conversion/HangDebug.cpp)
// and the host (cake-run, lib/Runner/HangReport.cpp) must agree on. Free of LLVM and MLIR, so the
// runner, which links neither, includes the same header. docs/Runner.md, "Hang reports".
//
// A kernel compiled with `--hang-timeout-ms=N` bounds every mbarrier wait. The first thread whose
// wait expires writes one record to a host-mapped buffer, whose device address the host stores
// in the kernel module's global kHangReportSymbol, and traps. The record is kHangReportWords
// little-endian u32 words: magic (written last), site id, block x, y, z, linear thread id, parity
// waited for, timeout in ms. At kHangTableOffsetBytes follows the barrier table: one 8-byte
// entry {site + 1 (0: not at a barrier), block x} per hardware warp slot,
// %smid * kHangTableWarpsPerSm + %warpid, for kHangTableSms SMs.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ABI_HANGLAYOUT_H
#define CAKE_ABI_HANGLAYOUT_H

#include <cstddef>
#include <cstdint>

namespace cake::abi {

inline constexpr char kHangReportSymbol[] = "__cake_hang_report";
/// The word the first expired thread claims (atomic exchange) before it writes the record.
inline constexpr char kHangClaimSymbol[] = "__cake_hang_claim";
inline constexpr uint32_t kHangReportMagic = 0xCA4E4A6E;
inline constexpr size_t kHangReportWords = 8;
inline constexpr size_t kHangTableOffsetBytes = 4096;
inline constexpr size_t kHangTableWarpsPerSm = 64;
inline constexpr size_t kHangTableSms = 256;
inline constexpr size_t kHangTableEntries = kHangTableSms * kHangTableWarpsPerSm;
/// The whole host-mapped buffer: the record's page and the table.
inline constexpr size_t kHangBufferBytes = kHangTableOffsetBytes + kHangTableEntries * 8;

} // namespace cake::abi

#endif // CAKE_ABI_HANGLAYOUT_H
