//===- IndexRange.cpp - the values an index takes, per thread -------------===//
#include "Cake/Analysis/IndexRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::cake;

namespace {
constexpr unsigned kMaxDepth = 16;
/// Far from overflow: products of two such bounds still fit in 64 bits.
constexpr int64_t kLimit = int64_t(1) << 30;

std::optional<Interval> bounded(int64_t lo, int64_t hi) {
  if (lo > hi || lo < -kLimit || hi > kLimit)
    return std::nullopt;
  return Interval{lo, hi};
}
} // namespace

std::optional<Interval> IndexRanges::range(Value v, int64_t thread) {
  return compute(v, thread, 0);
}

std::optional<Interval> IndexRanges::compute(Value v, int64_t thread, unsigned depth) {
  auto key = std::make_pair(v, thread);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  std::optional<Interval> result;
  const Lat &lat = model.eval(v)[thread];
  if (lat.kind == Lat::Known) {
    result = bounded(lat.value, lat.value);
  } else if (auto c = getConstantIntValue(v)) {
    result = bounded(*c, *c);
  } else if (depth < kMaxDepth) {
    auto sub = [&](Value operand) { return compute(operand, thread, depth + 1); };
    if (auto iv = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp());
      // A step the same in every thread (a constant, or computed from sizes the model binds).
      std::optional<int64_t> step = loop ? getConstantIntValue(loop.getStep()) : std::nullopt;
      if (loop && !step)
        step = model.getConstant(loop.getStep());
      if (loop && loop.getInductionVar() == iv && step && *step > 0) {
        auto lb = sub(loop.getLowerBound()), ub = sub(loop.getUpperBound());
        // The last value is lower + k * step; from a fixed lower bound, k is exact.
        if (lb && ub)
          result = bounded(lb->lo, lb->lo == lb->hi && ub->hi - 1 >= lb->lo
                                       ? lb->lo + (ub->hi - 1 - lb->lo) / *step * *step
                                       : ub->hi - 1);
      }
    } else if (Operation *def = v.getDefiningOp()) {
      // A divisor the same in every thread (a constant, or a size the model binds) is exact.
      std::optional<int64_t> rhsConst =
          def->getNumOperands() == 2 ? getConstantIntValue(def->getOperand(1)) : std::nullopt;
      if (!rhsConst && def->getNumOperands() == 2)
        rhsConst = model.getConstant(def->getOperand(1));
      if (isa<arith::RemUIOp>(def) && rhsConst && *rhsConst > 0) {
        auto a = sub(def->getOperand(0));
        result = a && a->lo >= 0 && a->hi < *rhsConst ? a : bounded(0, *rhsConst - 1);
      } else if (isa<arith::DivUIOp, arith::DivSIOp>(def) && rhsConst && *rhsConst > 0) {
        if (auto a = sub(def->getOperand(0)); a && a->lo >= 0)
          result = bounded(a->lo / *rhsConst, a->hi / *rhsConst);
      } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MinUIOp,
                     arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp>(def)) {
        auto a = sub(def->getOperand(0)), b = sub(def->getOperand(1));
        if (a && b) {
          if (isa<arith::AddIOp>(def)) {
            result = bounded(a->lo + b->lo, a->hi + b->hi);
          } else if (isa<arith::SubIOp>(def)) {
            result = bounded(a->lo - b->hi, a->hi - b->lo);
          } else if (isa<arith::MulIOp>(def)) {
            int64_t p[] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
            result = bounded(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
          } else if (isa<arith::MinUIOp, arith::MinSIOp>(def)) {
            result = bounded(std::min(a->lo, b->lo), std::min(a->hi, b->hi));
          } else {
            result = bounded(std::max(a->lo, b->lo), std::max(a->hi, b->hi));
          }
        }
      } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
        auto a = sub(select.getTrueValue()), b = sub(select.getFalseValue());
        if (a && b)
          result = bounded(std::min(a->lo, b->lo), std::max(a->hi, b->hi));
      } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(def)) {
        result = sub(def->getOperand(0));
      }
    }
  }
  memo[key] = result;
  return result;
}
