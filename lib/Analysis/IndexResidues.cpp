//===- IndexResidues.cpp - the low bits of an index, per thread -------------===//
#include "Cake/Analysis/IndexResidues.h"

#include "Cake/IR/CakeOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cake;

Residue mlir::cake::addResidue(Residue a, Residue b, bool subtract) {
  return Residue::make(std::min(a.bits, b.bits), subtract ? a.value - b.value : a.value + b.value);
}

Residue mlir::cake::mulResidue(Residue a, Residue b) {
  return Residue::make(std::min(a.bits + b.zeros(), b.bits + a.zeros()), a.value * b.value);
}

Residue mlir::cake::meetResidue(Residue a, Residue b) {
  unsigned bits = std::min(a.bits, b.bits);
  uint64_t differ = (a.value ^ b.value) & Residue::mask(bits);
  if (differ)
    bits = llvm::countr_zero(differ);
  return Residue::make(bits, a.value);
}

std::vector<Residue> ResidueModel::get(Value v, unsigned depth) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  std::vector<Residue> out = compute(v, depth);
  std::vector<Lat> lats = model.eval(v).vec();
  for (size_t t = 0; t < out.size(); ++t)
    if (lats[t].kind == Lat::Known)
      out[t] = Residue::exact(lats[t].value);
  memo[v] = out;
  return out;
}

std::vector<Residue> ResidueModel::compute(Value v, unsigned depth) {
  size_t n = model.getNumThreads();
  std::vector<Residue> out(n);
  if (depth > 32)
    return out;
  auto map2 = [&](Value x, Value y, auto fn) {
    std::vector<Residue> a = get(x, depth + 1), b = get(y, depth + 1);
    for (size_t t = 0; t < n; ++t)
      out[t] = fn(a[t], b[t]);
    return out;
  };
  auto map1 = [&](Value x, auto fn) {
    std::vector<Residue> a = get(x, depth + 1);
    for (size_t t = 0; t < n; ++t)
      out[t] = fn(a[t]);
    return out;
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A loop counter is lb + k * step: it keeps the low bits of lb that the step does not touch.
    auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return out;
    return map2(loop.getLowerBound(), loop.getStep(), [](Residue lb, Residue step) {
      return Residue::make(std::min(lb.bits, step.zeros()), lb.value);
    });
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return out;
  // A power of two the right-hand side is in every thread.
  auto powerOfTwo = [&](Value rhs) -> std::optional<unsigned> {
    std::optional<int64_t> c = model.getConstant(rhs);
    if (c && *c > 0 && llvm::isPowerOf2_64(*c))
      return llvm::Log2_64(*c);
    return std::nullopt;
  };
  if (isa<arith::AddIOp>(op))
    return map2(op->getOperand(0), op->getOperand(1),
                [](Residue a, Residue b) { return addResidue(a, b); });
  if (isa<arith::SubIOp>(op))
    return map2(op->getOperand(0), op->getOperand(1),
                [](Residue a, Residue b) { return addResidue(a, b, /*subtract=*/true); });
  if (isa<arith::MulIOp>(op))
    return map2(op->getOperand(0), op->getOperand(1), mulResidue);
  if (isa<arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp, arith::MaxSIOp>(op))
    return map2(op->getOperand(0), op->getOperand(1), meetResidue);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return map2(select.getTrueValue(), select.getFalseValue(), meetResidue);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp>(op))
    return map1(op->getOperand(0), [](Residue a) { return a; });
  if (isa<arith::ShLIOp>(op)) {
    std::optional<int64_t> s = model.getConstant(op->getOperand(1));
    if (!s || *s < 0 || *s >= 64)
      return out;
    return map1(op->getOperand(0),
                [&](Residue a) { return Residue::make(a.bits + *s, a.value << *s); });
  }
  if (isa<arith::ShRUIOp, arith::DivUIOp>(op)) {
    std::optional<unsigned> s;
    if (isa<arith::ShRUIOp>(op)) {
      std::optional<int64_t> c = model.getConstant(op->getOperand(1));
      if (c && *c >= 0 && *c < 64)
        s = static_cast<unsigned>(*c);
    } else {
      s = powerOfTwo(op->getOperand(1));
    }
    if (!s)
      return out;
    return map1(op->getOperand(0), [&](Residue a) {
      return a.bits > *s ? Residue::make(a.bits - *s, a.value >> *s) : Residue();
    });
  }
  // x mod c keeps x's low bits below c's trailing zeros; mod 2^p of a value known modulo 2^p is
  // exact.
  auto remainder = [&](Value x, int64_t c) {
    unsigned tz = llvm::countr_zero(static_cast<uint64_t>(c));
    bool power = llvm::isPowerOf2_64(c);
    return map1(x, [&](Residue a) {
      if (power && a.bits >= tz)
        return Residue::exact(static_cast<int64_t>(a.value & Residue::mask(tz)));
      return Residue::make(std::min(a.bits, tz), a.value);
    });
  };
  if (isa<arith::RemUIOp, arith::RemSIOp>(op)) {
    std::optional<int64_t> c = model.getConstant(op->getOperand(1));
    if (c && *c > 0 && isa<arith::RemUIOp>(op))
      return remainder(op->getOperand(0), *c);
    // x - q * y (either sign): x's low bits below y's trailing zeros.
    return map2(op->getOperand(0), op->getOperand(1), [](Residue x, Residue y) {
      return Residue::make(std::min(x.bits, y.zeros()), x.value);
    });
  }
  if (auto slot = dyn_cast<PipelineSlotOp>(op))
    return remainder(slot.getIteration(), slot.getPipeline().getType().getStages());
  if (isa<arith::AndIOp>(op)) {
    Value x = op->getOperand(0);
    std::optional<int64_t> c = model.getConstant(op->getOperand(1));
    if (!c) {
      x = op->getOperand(1);
      c = model.getConstant(op->getOperand(0));
    }
    if (!c) // both unknown: the bits both know, or the trailing zeros either has
      return map2(op->getOperand(0), op->getOperand(1), [](Residue a, Residue b) {
        Residue both = Residue::make(std::min(a.bits, b.bits), a.value & b.value);
        Residue zeros = Residue::make(std::max(a.zeros(), b.zeros()), 0);
        return both.bits >= zeros.bits ? both : zeros;
      });
    uint64_t bitsOfC = static_cast<uint64_t>(*c);
    return map1(x, [&](Residue a) {
      // Bits above the known ones where the mask is 0 are known zeros.
      unsigned bits = a.bits;
      while (bits < 64 && !((bitsOfC >> bits) & 1))
        ++bits;
      return Residue::make(bits, a.value & bitsOfC);
    });
  }
  return out;
}
