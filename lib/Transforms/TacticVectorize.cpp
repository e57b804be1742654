//===- TacticVectorize.cpp - tactic: widen the accesses of a reduction loop ===//
//
// Rewrites an inner reduction loop that walks the innermost dimension one element at a time,
//
//   %r = scf.for %j = %lb to %ub step %c1 iter_args(%acc = %init) -> (f32) {
//     %a = cake.load %x[..., %j] : ... -> f16          // innermost index: the induction variable
//     ...elementwise float arithmetic...
//     %n = math.fma %p, %q, %acc : f32                 // (or arith.addf %acc, %v)
//     scf.yield %n : f32
//   }
//
// into the same loop stepping by `width`: each load reads `width` elements (one vector access),
// the arithmetic runs on vectors, each accumulator becomes a vector of partial sums that starts at
// zero, and after the loop the partial sums are added up and added to %init (vector.reduction).
// The sum is reassociated, so results change within rounding (like any reduction order change).
//
// Preconditions (else [tactic.not-applicable] with the reason): constant bounds with lb and
// ub - lb multiples of `width`, step 1; a body of loads (innermost index = the induction
// variable, the other indices defined outside the loop), elementwise float ops and yields only;
// every iteration argument a float scalar used once, as the accumulator of the add or fma whose
// result it yields; each access at most 16 bytes. Accesses stay aligned: they start at multiples
// of `width` from the start of a row, and a global tensor's row stride gets the manifest
// constraint every vector access gets (docs/Manifest.md); a shared buffer's rows must be a
// multiple of `width` (checked).
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"
#include "TacticUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Ops that compute lane by lane on floats (the vector form is the same op on vector types).
bool isElementwiseFloat(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::NegFOp,
             arith::ExtFOp, arith::TruncFOp, arith::MaximumFOp, arith::MinimumFOp, math::FmaOp>(
      op);
}

/// Why `loop` cannot be widened to `width` ("" when it can).
std::string reason(scf::ForOp loop, int64_t width) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step)
    return "bounds or step not constant";
  if (*step != 1)
    return "step " + std::to_string(*step) + ", not 1";
  if (*lb % width != 0 || (*ub - *lb) % width != 0)
    return "bounds [" + std::to_string(*lb) + ", " + std::to_string(*ub) +
           ") not multiples of the width";
  if (loop.getNumRegionIterArgs() == 0)
    return "no reduction (no iteration arguments)";
  Value iv = loop.getInductionVar();
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  bool anyLoad = false;
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (isa<VectorType>(load.getResult().getType()))
        return "a load is already a vector access";
      auto indices = load.getIndices();
      if (indices.empty() || indices.back() != iv)
        return "a load's innermost index is not the induction variable";
      for (Value index : indices.drop_back())
        if (loop.getBody()->getParent()->isAncestor(index.getParentRegion()))
          return "a load's outer index is computed in the loop";
      unsigned bytes = getElementBytes(load.getResult().getType());
      if (bytes * width > 16)
        return std::to_string(bytes * width) + "-byte accesses (at most 16)";
      if (auto smem = dyn_cast<SmemType>(load.getSource().getType()))
        if (smem.getShape().back() % width != 0 || (smem.getPad() % width) != 0)
          return "a shared buffer's rows are not a multiple of the width";
      anyLoad = true;
      continue;
    }
    if (isElementwiseFloat(&op)) {
      for (Value operand : op.getOperands())
        if (!isa<FloatType>(operand.getType()))
          return "'" + op.getName().getStringRef().str() + "' on a non-float value";
      continue;
    }
    if (isa<arith::ConstantOp>(op) && isa<FloatType>(op.getResult(0).getType()))
      continue;
    return "'" + op.getName().getStringRef().str() + "' in the body";
  }
  if (!anyLoad)
    return "no load of the innermost dimension";
  for (auto [arg, yielded] : llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) {
    if (!isa<FloatType>(arg.getType()))
      return "a non-float iteration argument";
    if (!arg.hasOneUse())
      return "an accumulator used more than once";
    Operation *user = *arg.getUsers().begin();
    Operation *producer = yielded.getDefiningOp();
    if (user != producer)
      return "an accumulator that is not the yielded add's or fma's operand";
    bool addend = (isa<arith::AddFOp>(user)) ||
                  (isa<math::FmaOp>(user) && user->getOperand(2) == arg &&
                   user->getOperand(0) != arg && user->getOperand(1) != arg);
    if (!addend)
      return "an accumulator that is not the addend of an add or fma";
  }
  return "";
}

void rewrite(RewriterBase &rewriter, scf::ForOp loop, int64_t width) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto vectorOf = [&](Type scalar) { return VectorType::get({int64_t(width)}, scalar); };
  SmallVector<Value> inits;
  for (Value init : loop.getInitArgs())
    inits.push_back(arith::ConstantOp::create(b, loc, vectorOf(init.getType()),
                                              b.getZeroAttr(vectorOf(init.getType()))));
  Value step = arith::ConstantIndexOp::create(b, loc, width);
  auto wide = scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), step,
                                 inits);
  IRMapping map;
  map.map(loop.getInductionVar(), wide.getInductionVar());
  for (auto [from, to] : llvm::zip(loop.getRegionIterArgs(), wide.getRegionIterArgs()))
    map.map(from, to);
  OpBuilder inner = OpBuilder::atBlockBegin(wide.getBody());
  // Float scalars from outside the loop, broadcast once per use site.
  auto widen = [&](Value v) -> Value {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    Value splat = vector::BroadcastOp::create(inner, loc, vectorOf(v.getType()), v);
    map.map(v, splat);
    return splat;
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      Operation *copy = inner.clone(op, map);
      copy->getResult(0).setType(vectorOf(load.getResult().getType()));
      continue;
    }
    if (isa<arith::ConstantOp>(op)) {
      auto value = cast<FloatAttr>(cast<arith::ConstantOp>(op).getValue());
      Value splat = arith::ConstantOp::create(
          inner, op.getLoc(), vectorOf(value.getType()),
          DenseElementsAttr::get(vectorOf(value.getType()), value.getValue()));
      map.map(op.getResult(0), splat);
      continue;
    }
    for (Value operand : op.getOperands())
      widen(operand);
    Operation *copy = inner.clone(op, map);
    for (OpResult result : copy->getResults())
      result.setType(vectorOf(result.getType()));
  }
  SmallVector<Value> yielded;
  for (Value v : cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperands())
    yielded.push_back(map.lookup(v));
  scf::YieldOp::create(inner, loc, yielded);

  // The partial sums, added up, plus what the loop started from.
  b.setInsertionPointAfter(wide);
  SmallVector<Value> results;
  for (auto [partial, init] : llvm::zip(wide.getResults(), loop.getInitArgs())) {
    Value sum = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, partial);
    results.push_back(arith::AddFOp::create(b, loc, init, sum).getResult());
  }
  rewriter.replaceOp(loop, results);
}
} // namespace

std::string CakeTacticVectorizeOp::checkOptions(const Options &options) {
  int64_t width = options.width;
  if (width < 2 || width > 16 || (width & (width - 1)) != 0)
    return "expected width 2, 4, 8 or 16, got " + std::to_string(width);
  return "";
}

LogicalResult CakeTacticVectorizeOp::applyTactic(RewriterBase &rewriter, Operation *root,
                                                 const Options &options) {
  int64_t width = options.width;
  SmallVector<scf::ForOp> loops;
  SmallVector<std::pair<Location, std::string>> reasons;
  root->walk([&](scf::ForOp loop) {
    if (!loop->getParentOfType<KernelOp>())
      return;
    std::string why = reason(loop, width);
    if (why.empty())
      loops.push_back(loop);
    else
      reasons.push_back({loop.getLoc(), why});
  });
  if (loops.empty())
    return reportNothingQualifies(root, passArgument, "reduction loop", reasons);
  for (scf::ForOp loop : loops)
    rewrite(rewriter, loop, width);
  return success();
}
