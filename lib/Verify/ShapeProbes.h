//===- ShapeProbes.h - concrete launches the verify passes model ----------===//
//
// Shared by cake-verify-shapes and the checks that need a witness size (a property that holds
// only for some shapes is reported with a failing one).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_SHAPEPROBES_H
#define CAKE_TRANSFORMS_SHAPEPROBES_H

#include "Cake/Analysis/ThreadModel.h"

#include <string>
#include <vector>

namespace mlir::cake {
/// Every problem size bound to a value ragged against warps, tiles and blocks (a size that sets
/// a row stride read with vector accesses or TMA keeps 16-byte rows, as the manifest requires),
/// with the grid extents evaluated: one probe per size set.
std::vector<ShapeProbe> getProbeSizeSets(KernelOp kernel);
/// Whether the probe's grid has at least one block in every dimension.
bool hasBlocks(const ShapeProbe &probe);
/// "N = 1001, D = 16 (block (3, 0, 0))": the launch a finding happens in (its sizes only when
/// `withBlock` is false).
std::string describeProbe(KernelOp kernel, const ShapeProbe &probe, bool withBlock = true);
} // namespace mlir::cake

#endif // CAKE_TRANSFORMS_SHAPEPROBES_H
