//===- ShapeProbes.h - concrete launches the verify passes model ----------===//
//
// Shared by cake-verify-shapes and the checks that need a witness size (a property that holds
// only for some shapes is reported with a failing one).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_SHAPEPROBES_H
#define CAKE_TRANSFORMS_SHAPEPROBES_H

#include "Cake/Analysis/ThreadModel.h"

#include <vector>

namespace mlir::cake {
/// Every problem size bound to a value ragged against warps, tiles and blocks (a size that sets
/// a row stride read with vector accesses or TMA keeps 16-byte rows, as the manifest requires),
/// with the grid extents evaluated: one probe per size set.
std::vector<ShapeProbe> getProbeSizeSets(KernelOp kernel);
} // namespace mlir::cake

#endif // CAKE_TRANSFORMS_SHAPEPROBES_H
