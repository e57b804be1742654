//===- Cubin.cpp - what a cubin defines, read from its ELF ----------------===//
#include "Cake/Runner/Cubin.h"

#include <cstdint>
#include <cstring>

using namespace cake::runner;

namespace {
/// Little-endian field of `size` bytes at `offset`, if it lies inside `data`.
bool readField(std::string_view data, uint64_t offset, unsigned size, uint64_t &out) {
  if (offset > data.size() || size > data.size() - offset)
    return false;
  out = 0;
  for (unsigned i = 0; i < size; ++i)
    out |= static_cast<uint64_t>(static_cast<unsigned char>(data[offset + i])) << (8 * i);
  return true;
}

constexpr uint32_t kSymtab = 2; // SHT_SYMTAB
constexpr unsigned kSectionHeaderSize = 64, kSymbolSize = 24;
} // namespace

SymbolPresence cake::runner::findCubinSymbol(std::string_view cubin, std::string_view name) {
  // ELF64, little-endian.
  if (cubin.size() < 64 || std::memcmp(cubin.data(), "\x7f" "ELF", 4) != 0 || cubin[4] != 2 ||
      cubin[5] != 1)
    return SymbolPresence::Unknown;
  uint64_t shoff, shentsize, shnum;
  if (!readField(cubin, 0x28, 8, shoff) || !readField(cubin, 0x3A, 2, shentsize) ||
      !readField(cubin, 0x3C, 2, shnum) || shentsize != kSectionHeaderSize)
    return SymbolPresence::Unknown;
  bool sawSymtab = false;
  for (uint64_t i = 0; i < shnum; ++i) {
    uint64_t header = shoff + i * kSectionHeaderSize, type, offset, size, link;
    if (!readField(cubin, header + 0x04, 4, type) || !readField(cubin, header + 0x18, 8, offset) ||
        !readField(cubin, header + 0x20, 8, size) || !readField(cubin, header + 0x28, 4, link))
      return SymbolPresence::Unknown;
    if (type != kSymtab)
      continue;
    sawSymtab = true;
    uint64_t strHeader = shoff + link * kSectionHeaderSize, strOffset, strSize;
    if (link >= shnum || !readField(cubin, strHeader + 0x18, 8, strOffset) ||
        !readField(cubin, strHeader + 0x20, 8, strSize) || strOffset > cubin.size() ||
        strSize > cubin.size() - strOffset || offset > cubin.size() || size > cubin.size() - offset)
      return SymbolPresence::Unknown;
    std::string_view strings = cubin.substr(strOffset, strSize);
    for (uint64_t sym = offset; sym + kSymbolSize <= offset + size; sym += kSymbolSize) {
      uint64_t nameOffset, sectionIndex;
      readField(cubin, sym, 4, nameOffset);
      readField(cubin, sym + 6, 2, sectionIndex);
      if (nameOffset >= strings.size() || sectionIndex == 0) // undefined symbols do not count
        continue;
      std::string_view symbol = strings.substr(nameOffset);
      symbol = symbol.substr(0, symbol.find('\0'));
      if (symbol == name)
        return SymbolPresence::Defined;
    }
  }
  return sawSymtab ? SymbolPresence::Absent : SymbolPresence::Unknown;
}
