//===- SymbolicBound.cpp - linear bounds of indices at a program point ----===//
#include "Cake/Analysis/SymbolicBound.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::cake;

namespace {
constexpr unsigned kMaxDepth = 24;
/// Bounds kept per value: the analysis looks for one that cancels, not for all of them.
constexpr size_t kMaxForms = 12;
/// Coefficients and constants beyond this are dropped (far from overflow in sums and products).
constexpr int64_t kLimit = int64_t(1) << 40;

bool inLimit(const LinearForm &f) {
  if (f.constant > kLimit || f.constant < -kLimit)
    return false;
  return llvm::all_of(f.terms, [](auto t) { return t.second <= kLimit && t.second >= -kLimit; });
}

/// Adds `f` to `out` unless present; fewer atoms first, then the tighter constant.
void addForm(llvm::SmallVectorImpl<LinearForm> &out, const LinearForm &f, bool upper) {
  if (!inLimit(f) || llvm::is_contained(out, f))
    return;
  out.push_back(f);
  llvm::stable_sort(out, [&](const LinearForm &a, const LinearForm &b) {
    if (a.terms.size() != b.terms.size())
      return a.terms.size() < b.terms.size();
    return upper ? a.constant < b.constant : a.constant > b.constant;
  });
  if (out.size() > kMaxForms)
    out.pop_back();
}

/// The facts `lhs <= rhs + offset` a condition gives when it is `truth`.
void addConditionFacts(Value cond, bool truth,
                       llvm::function_ref<void(Value, Value, int64_t)> add) {
  Operation *def = cond.getDefiningOp();
  if (!def)
    return;
  if (isa<arith::AndIOp>(def) && truth) { // both hold
    addConditionFacts(def->getOperand(0), true, add);
    addConditionFacts(def->getOperand(1), true, add);
    return;
  }
  if (isa<arith::OrIOp>(def) && !truth) { // neither holds
    addConditionFacts(def->getOperand(0), false, add);
    addConditionFacts(def->getOperand(1), false, add);
    return;
  }
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return;
  Value a = cmp.getLhs(), b = cmp.getRhs();
  arith::CmpIPredicate p = truth ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
  switch (p) {
  case arith::CmpIPredicate::ult:
  case arith::CmpIPredicate::slt:
    add(a, b, -1);
    break;
  case arith::CmpIPredicate::ule:
  case arith::CmpIPredicate::sle:
    add(a, b, 0);
    break;
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::sgt:
    add(b, a, -1);
    break;
  case arith::CmpIPredicate::uge:
  case arith::CmpIPredicate::sge:
    add(b, a, 0);
    break;
  case arith::CmpIPredicate::eq:
    add(a, b, 0);
    add(b, a, 0);
    break;
  case arith::CmpIPredicate::ne:
    break;
  }
}
} // namespace

LinearForm LinearForm::operator+(const LinearForm &other) const {
  LinearForm out;
  out.constant = constant + other.constant;
  auto i = terms.begin(), j = other.terms.begin();
  while (i != terms.end() || j != other.terms.end()) {
    if (j == other.terms.end() || (i != terms.end() && i->first < j->first)) {
      out.terms.push_back(*i++);
    } else if (i == terms.end() || j->first < i->first) {
      out.terms.push_back(*j++);
    } else {
      if (int64_t c = i->second + j->second)
        out.terms.push_back({i->first, c});
      ++i, ++j;
    }
  }
  return out;
}

LinearForm LinearForm::scaled(int64_t factor) const {
  if (factor == 0)
    return constantForm(0);
  LinearForm out{terms, constant * factor};
  for (auto &t : out.terms)
    t.second *= factor;
  return out;
}

const void *SymbolicBounds::sizeAtom(MLIRContext *context, llvm::StringRef name) {
  return StringAttr::get(context, name).getAsOpaquePointer();
}

std::optional<Interval> SymbolicBounds::constantRange(Value v) {
  if (auto it = constants.find(v); it != constants.end())
    return it->second;
  std::optional<Interval> all;
  for (int64_t t = 0, e = model.getNumThreads(); t < e; ++t) {
    std::optional<Interval> r = ranges.range(v, t);
    if (!r) {
      all.reset();
      break;
    }
    all = all ? Interval{std::min(all->lo, r->lo), std::max(all->hi, r->hi)} : *r;
  }
  return constants[v] = all;
}

bool SymbolicBounds::dependsOnLoad(Value v) {
  if (auto it = loaded.find(v); it != loaded.end())
    return it->second;
  loaded[v] = false; // cycles through loop-carried values
  bool result = false;
  if (Operation *def = v.getDefiningOp()) {
    if (isa<LoadOp>(def))
      result = true;
    else if (def->getNumRegions() == 0)
      result = llvm::any_of(def->getOperands(), [&](Value o) { return dependsOnLoad(o); });
  } else if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        loop && loop.getInductionVar() == arg)
      result = dependsOnLoad(loop.getLowerBound()) || dependsOnLoad(loop.getUpperBound());
  }
  return loaded[v] = result;
}

void SymbolicBounds::setContext(Operation *at) {
  Region *region = at->getParentRegion();
  if (region == context)
    return;
  context = region;
  memo.clear();
  facts.clear();
  for (Operation *child = at, *parent = at->getParentOp(); parent && !isa<KernelOp>(parent);
       child = parent, parent = parent->getParentOp())
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      addConditionFacts(ifOp.getCondition(),
                        child->getParentRegion() == &ifOp.getThenRegion(),
                        [&](Value a, Value b, int64_t c) { facts.push_back({a, b, c}); });
}

llvm::SmallVector<LinearForm> SymbolicBounds::upper(Value v, Operation *at) {
  setContext(at);
  return bounds(v, true, 0);
}

llvm::SmallVector<LinearForm> SymbolicBounds::lower(Value v, Operation *at) {
  setContext(at);
  return bounds(v, false, 0);
}

llvm::SmallVector<LinearForm> SymbolicBounds::bounds(Value v, bool up, unsigned depth) {
  auto key = std::make_pair(v, unsigned(up));
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  llvm::SmallVector<LinearForm> out;
  auto add = [&](const LinearForm &f) { addForm(out, f, up); };
  if (std::optional<int64_t> c = getConstantIntValue(v)) {
    add(LinearForm::constantForm(*c));
    return memo[key] = out;
  }
  if (auto size = v.getDefiningOp<ProblemSizeOp>()) {
    add(LinearForm{{{sizeAtom(v.getContext(), size.getSymbol()), 1}}, 0});
    return memo[key] = out;
  }
  add(LinearForm{{{v.getAsOpaquePointer(), 1}}, 0}); // itself: bounds of differences cancel
  if (std::optional<Interval> r = constantRange(v))
    add(LinearForm::constantForm(up ? r->hi : r->lo));
  if (depth >= kMaxDepth || !active.insert(key).second)
    return out; // not memoized: a partial answer inside a cycle
  auto sub = [&](Value operand, bool dirUp) { return bounds(operand, dirUp, depth + 1); };
  auto pairs = [&](Value a, bool aUp, Value b, bool bUp, int64_t sign) {
    for (const LinearForm &fa : sub(a, aUp))
      for (const LinearForm &fb : sub(b, bUp))
        add(fa + fb.scaled(sign));
  };
  // Bounds common to two values (a max of them, a select between them): where two bounds differ
  // by a constant, the looser one bounds both.
  auto common = [&](Value a, Value b) {
    for (const LinearForm &fa : sub(a, up))
      for (const LinearForm &fb : sub(b, up)) {
        LinearForm d = fa + fb.scaled(-1);
        if (d.isConstant())
          add((d.constant >= 0) == up ? fa : fb);
      }
  };
  if (Operation *def = v.getDefiningOp()) {
    if (isa<arith::AddIOp>(def)) {
      pairs(def->getOperand(0), up, def->getOperand(1), up, 1);
    } else if (isa<arith::SubIOp>(def)) {
      pairs(def->getOperand(0), up, def->getOperand(1), !up, -1);
    } else if (isa<arith::MulIOp>(def)) {
      for (int i = 0; i < 2; ++i)
        if (std::optional<int64_t> k = getConstantIntValue(def->getOperand(1 - i)))
          for (const LinearForm &f : sub(def->getOperand(i), *k >= 0 ? up : !up))
            add(f.scaled(*k));
    } else if (isa<arith::MinUIOp, arith::MinSIOp>(def)) {
      if (up) {
        for (const LinearForm &f : sub(def->getOperand(0), true))
          add(f);
        for (const LinearForm &f : sub(def->getOperand(1), true))
          add(f);
      } else {
        common(def->getOperand(0), def->getOperand(1));
      }
    } else if (isa<arith::MaxUIOp, arith::MaxSIOp>(def)) {
      if (up) {
        common(def->getOperand(0), def->getOperand(1));
      } else {
        for (const LinearForm &f : sub(def->getOperand(0), false))
          add(f);
        for (const LinearForm &f : sub(def->getOperand(1), false))
          add(f);
      }
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
      common(select.getTrueValue(), select.getFalseValue());
    } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp>(def)) {
      for (const LinearForm &f : sub(def->getOperand(0), up))
        add(f);
    }
  } else if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && loop.getInductionVar() == arg) {
      if (up) // iv < upper
        for (const LinearForm &f : sub(loop.getUpperBound(), true))
          add(f + LinearForm::constantForm(-1));
      else
        for (const LinearForm &f : sub(loop.getLowerBound(), false))
          add(f);
    }
  }
  for (const Fact &fact : facts) { // lhs <= rhs + offset
    if (up && fact.lhs == v)
      for (const LinearForm &f : sub(fact.rhs, true))
        add(f + LinearForm::constantForm(fact.offset));
    if (!up && fact.rhs == v)
      for (const LinearForm &f : sub(fact.lhs, false))
        add(f + LinearForm::constantForm(-fact.offset));
  }
  active.erase(key);
  return memo[key] = out;
}
