//===- TacticRegistry.cpp - the shipped tactics ----------------------------===//
//
// The presets are in the tactics' records (include/Cake/Transforms/Tactics/*.td), each op class
// appending its own; here they are put in the tactics' search order.
//
//===----------------------------------------------------------------------===//
#include "Cake/Transforms/TacticRegistry.h"
#include "Cake/Transforms/TacticOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::cake;

namespace {
/// Whether no two tactics share a place in the search order (it must be a total order).
template <typename... TacticOps> constexpr bool searchRanksAreDistinct() {
  constexpr int ranks[] = {TacticOps::searchRank...};
  for (size_t i = 0; i < sizeof...(TacticOps); ++i)
    for (size_t j = i + 1; j < sizeof...(TacticOps); ++j)
      if (ranks[i] == ranks[j])
        return false;
  return true;
}

/// What the registry needs of one tactic's op class.
struct Tactic {
  int rank;
  void (*appendPresets)(std::vector<TacticPreset> &);
  llvm::json::Object (*describe)();
};

template <typename... TacticOps> std::vector<Tactic> inSearchOrder() {
  static_assert(searchRanksAreDistinct<TacticOps...>(),
                "two tactic records have the same rank (include/Cake/Transforms/Tactics/)");
  std::vector<Tactic> tactics = {
      {TacticOps::searchRank, &TacticOps::appendPresets, &TacticOps::describeTactic}...};
  llvm::sort(tactics, [](const Tactic &a, const Tactic &b) { return a.rank < b.rank; });
  return tactics;
}

const std::vector<Tactic> &getTactics() {
  static const std::vector<Tactic> tactics = inSearchOrder<
#define GET_OP_LIST
#include "Cake/Transforms/TacticOps.cpp.inc"
      >();
  return tactics;
}
} // namespace

const std::vector<TacticPreset> &mlir::cake::getTacticPresets() {
  static const std::vector<TacticPreset> presets = [] {
    std::vector<TacticPreset> out;
    for (const Tactic &tactic : getTactics())
      tactic.appendPresets(out);
    return out;
  }();
  return presets;
}

llvm::json::Value mlir::cake::tacticPresetsAsJson() {
  llvm::json::Array tactics;
  for (const TacticPreset &t : getTacticPresets()) {
    llvm::json::Array needed(t.requiresOps), forbidden(t.forbidsOps);
    tactics.push_back(llvm::json::Object{{"name", t.name},
                                        {"pass", t.pass},
                                        {"pipeline", t.pipeline},
                                        {"transform", t.transform},
                                        {"requires_ops", std::move(needed)},
                                        {"forbids_ops", std::move(forbidden)}});
  }
  llvm::json::Array passes;
  for (const Tactic &tactic : getTactics())
    passes.push_back(tactic.describe());
  return llvm::json::Object{
      {"version", 1}, {"tactics", std::move(tactics)}, {"passes", std::move(passes)}};
}
