//===- CubinTest.cpp - Tests of reading a cubin's symbols -----------------===//

#include "Cake/Runner/Cubin.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace cake::runner;

namespace {
void put(std::string &out, uint64_t offset, uint64_t value, unsigned size) {
  if (out.size() < offset + size)
    out.resize(offset + size, '\0');
  for (unsigned i = 0; i < size; ++i)
    out[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

/// A minimal ELF64 with a .symtab (a null symbol, `defined` in section 1, `undefined` in none)
/// and its .strtab, as ptxas lays a cubin's out.
std::string makeElf() {
  std::string strtab = std::string("\0", 1) + "defined" + std::string("\0", 1) + "undefined" +
                       std::string("\0", 1);
  std::string elf(64, '\0');
  elf.replace(0, 4, "\x7f" "ELF");
  elf[4] = 2; // ELFCLASS64
  elf[5] = 1; // little-endian
  uint64_t symOffset = 64, symSize = 3 * 24;
  uint64_t strOffset = symOffset + symSize;
  uint64_t shoff = strOffset + strtab.size();
  // Symbols: null, "defined" (name 1, section 1), "undefined" (name 9, section 0).
  put(elf, symOffset + 24 + 0, 1, 4);
  put(elf, symOffset + 24 + 6, 1, 2);
  put(elf, symOffset + 48 + 0, 9, 4);
  put(elf, symOffset + 48 + 6, 0, 2);
  elf.resize(strOffset);
  elf += strtab;
  // Section headers: null, .symtab (type 2, link 2), .strtab (type 3).
  uint64_t symHeader = shoff + 64, strHeader = shoff + 128;
  put(elf, symHeader + 0x04, 2, 4);
  put(elf, symHeader + 0x18, symOffset, 8);
  put(elf, symHeader + 0x20, symSize, 8);
  put(elf, symHeader + 0x28, 2, 4);
  put(elf, strHeader + 0x04, 3, 4);
  put(elf, strHeader + 0x18, strOffset, 8);
  put(elf, strHeader + 0x20, strtab.size(), 8);
  elf.resize(shoff + 3 * 64, '\0'); // all three section headers, whole
  put(elf, 0x28, shoff, 8);
  put(elf, 0x3A, 64, 2);
  put(elf, 0x3C, 3, 2);
  return elf;
}

TEST(Cubin, FindsDefinedSymbols) {
  std::string elf = makeElf();
  EXPECT_EQ(findCubinSymbol(elf, "defined"), SymbolPresence::Defined);
  EXPECT_EQ(findCubinSymbol(elf, "undefined"), SymbolPresence::Absent);
  EXPECT_EQ(findCubinSymbol(elf, "kmeans_ref_check"), SymbolPresence::Absent);
}

TEST(Cubin, AnythingElseIsUnknown) {
  EXPECT_EQ(findCubinSymbol("not-a-cubin", "x"), SymbolPresence::Unknown);
  EXPECT_EQ(findCubinSymbol(".version 8.0\n.target sm_90a\n", "x"), SymbolPresence::Unknown);
  std::string elf = makeElf();
  EXPECT_EQ(findCubinSymbol(elf.substr(0, elf.size() - 100), "defined"),
            SymbolPresence::Unknown); // truncated: section headers past the end
}
} // namespace
