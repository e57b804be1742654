//===- Cubin.h - what a cubin defines, read from its ELF ---------*- C++ -*-===//
//
// cake-run asks whether a cubin defines an optional symbol (the reference's `<entry>_check`, the
// hang report) before asking the driver, whose failing lookups show as API errors under
// compute-sanitizer. A cubin is an ELF64 file; anything else (a fatbin, PTX) answers Unknown.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_RUNNER_CUBIN_H
#define CAKE_RUNNER_CUBIN_H

#include <string>
#include <string_view>

namespace cake::runner {

enum class SymbolPresence { Defined, Absent, Unknown };

/// Whether the ELF symbol table of `cubin` defines `name`.
SymbolPresence findCubinSymbol(std::string_view cubin, std::string_view name);

} // namespace cake::runner

#endif // CAKE_RUNNER_CUBIN_H
