//===- Target.cpp - The target table ---------------------------------------===//
#include "Cake/IR/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::cake;

ArrayRef<TargetInfo> mlir::cake::getTargetTable() {
  static const TargetInfo table[] = {
#define CAKE_TARGET(name, sm, features, shared, sharedPerSm, blocksPerSm, threadsPerSm, ptx)         \
  {name, sm, features, shared, sharedPerSm, blocksPerSm, threadsPerSm, ptx},
#include "Cake/IR/Targets.def"
  };
  return table;
}

const TargetInfo *mlir::cake::lookupTarget(StringRef name) {
  for (const TargetInfo &t : getTargetTable())
    if (t.name == name)
      return &t;
  return nullptr;
}

bool mlir::cake::targetHas(StringRef target, unsigned features) {
  const TargetInfo *t = lookupTarget(target);
  return t && (t->features & features) == features;
}

std::string mlir::cake::joinTargetsWith(unsigned features, StringRef sep) {
  SmallVector<StringRef> names;
  for (const TargetInfo &t : getTargetTable())
    if ((t.features & features) == features)
      names.push_back(t.name);
  return llvm::join(names, sep);
}

const TargetRequirementInfo &mlir::cake::getTargetRequirementInfo(TargetRequirement requirement) {
  static const TargetRequirementInfo table[] = {
#define CAKE_REQUIREMENT(name, rule, what, features) {rule, what, features},
#include "Cake/IR/TargetRequirements.def"
  };
  return table[static_cast<unsigned>(requirement)];
}
