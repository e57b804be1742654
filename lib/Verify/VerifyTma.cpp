//===- VerifyTma.cpp - TMA copies against the kernel ----------------------===//
//
// Multicast masks against the cluster size, the stride at which a loop walks a TMA coordinate
// against the box (a stride below the box copies overlapping tiles: usually a tile size that does
// not match the descriptor), and the 16-byte alignment of 1-D copies. Transaction bytes are cake-verify-mbarrier's and -pipeline's.
//
//===----------------------------------------------------------------------===//
#include "KernelCheck.h"
#include "PathSimulation.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numeric>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTMAPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {

/// How much `v` advances per iteration of `loop`: 0 when loop-invariant; the step (times
/// constants) for the induction variable through addi / subi / muli by constants; else unknown.
std::optional<int64_t> getStride(Value v, scf::ForOp loop, unsigned depth = 0) {
  if (depth > 32)
    return std::nullopt;
  if (v == loop.getInductionVar())
    return getConstantIntValue(loop.getStep());
  if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
    return 0; // defined outside the loop
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt; // an iteration argument
  if (getConstantIntValue(v))
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> a = getStride(def->getOperand(0), loop, depth + 1);
    std::optional<int64_t> b = getStride(def->getOperand(1), loop, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> c = getConstantIntValue(def->getOperand(i)))
        if (std::optional<int64_t> s = getStride(def->getOperand(1 - i), loop, depth + 1))
          return *c * *s;
    return std::nullopt;
  }
  return std::nullopt;
}

/// Warns about each coordinate of `op` that an enclosing scf.for advances by less than the box.
bool checkStrides(Operation *op, TmaType tma, ValueRange coords) {
  ArrayRef<int64_t> box = tma.getBox();
  for (auto [dim, coord] : llvm::enumerate(coords)) {
    if (dim >= box.size())
      break;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      std::optional<int64_t> stride = getStride(coord, loop);
      if (!stride || *stride == 0 || std::abs(*stride) >= box[dim])
        continue;
      InFlightDiagnostic diag = emitFindingWarning(op, "tma.coord-stride")
                                << "coordinate " << dim << " advances by " << *stride
                                << " per iteration, less than the box's " << box[dim]
                                << ": consecutive iterations copy overlapping tiles";
      diag.attachNote(loop.getLoc()) << "the loop is here";
      attachFix(diag, op, "tma.coord-stride",
                "advance the coordinate by the box extent " + std::to_string(box[dim]) +
                    " per iteration (tile size = box), or shrink the box to the tile");
      break; // one warning per coordinate
    }
  }
  return true;
}

/// What is known of an index value modulo some m: v == residue (mod modulus); modulus 0 means
/// v == residue exactly, modulus 1 means nothing is known.
struct Congruence {
  int64_t modulus = 1, residue = 0;
};

int64_t gcd(int64_t a, int64_t b) { return std::gcd(std::abs(a), std::abs(b)); }

Congruence normalize(int64_t modulus, int64_t residue) {
  if (modulus == 0)
    return {0, residue};
  return {modulus, ((residue % modulus) + modulus) % modulus};
}

/// The congruence of `v` through constants, addi / subi / muli, and scf.for induction variables
/// (lower bound + k * step). Anything else (problem sizes, ids, divisions) is unknown.
Congruence congruence(Value v, unsigned depth = 0) {
  constexpr int64_t kCap = int64_t(1) << 30; // keep products small: only small moduli matter
  if (depth > 32)
    return {};
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return {0, *c};
  if (auto iv = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp());
    if (!loop || loop.getInductionVar() != iv)
      return {};
    Congruence lb = congruence(loop.getLowerBound(), depth + 1);
    Congruence step = congruence(loop.getStep(), depth + 1);
    int64_t m = gcd(lb.modulus, gcd(step.modulus, step.residue));
    return m == 0 ? Congruence{0, lb.residue} : normalize(m, lb.residue);
  }
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::IndexCastOp>(def))
    return {};
  if (isa<arith::IndexCastOp>(def))
    return congruence(def->getOperand(0), depth + 1);
  Congruence a = congruence(def->getOperand(0), depth + 1);
  Congruence b = congruence(def->getOperand(1), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    int64_t r = isa<arith::AddIOp>(def) ? a.residue + b.residue : a.residue - b.residue;
    return normalize(gcd(a.modulus, b.modulus), r);
  }
  // (ma x + ra)(mb y + rb): known modulo gcd(ma mb, ma rb, mb ra).
  if (a.modulus == 0 && b.modulus == 0)
    return {0, a.residue * b.residue};
  int64_t m = gcd(gcd(a.modulus * b.modulus, a.modulus * b.residue), b.modulus * a.residue);
  return m > kCap ? Congruence{} : normalize(m, a.residue * b.residue);
}

/// A 1-D copy must start 16-byte aligned: on the H200 one that does not faults with
/// CUDA_ERROR_ILLEGAL_INSTRUCTION (bench/results/2026-12-01-library-kmeans). An error when the
/// coordinate is provably misaligned, a warning when nothing says it is aligned (the host may
/// guarantee it: say so beside the symbol).
bool checkAlignment(Operation *op, TmaType tma, ValueRange coords) {
  if (tma.getRank() != 1 || coords.empty())
    return true;
  int64_t bytes = getElementBytes(tma.getElementType());
  int64_t need = bytes >= 16 ? 1 : 16 / bytes;
  Congruence c = congruence(coords.back());
  bool known = c.modulus == 0 || c.modulus % need == 0;
  if (known && c.residue % need == 0)
    return true;
  std::string aligned = "16-byte aligned (a multiple of " + std::to_string(need) + " elements)";
  std::string hint = "make the coordinate a multiple of " + std::to_string(need) +
                     " (round it down and skip the extra elements, or pad the rows)";
  if (known) {
    InFlightDiagnostic diag = emitFinding(op, "tma.coordinate-alignment")
                              << "expected a 1-D copy to start " << aligned
                              << ", got a coordinate that is " << c.residue % need << " modulo "
                              << need << ": a misaligned start faults";
    attachFix(diag, op, "tma.coordinate-alignment", hint);
    return false;
  }
  InFlightDiagnostic diag = emitFindingWarning(op, "tma.coordinate-alignment")
                            << "a 1-D copy must start " << aligned
                            << " or it faults; nothing shows this coordinate is (the host must "
                               "guarantee it)";
  attachFix(diag, op, "tma.coordinate-alignment", hint);
  return true;
}

struct CakeVerifyTmaPass : cake::impl::CakeVerifyTmaPassBase<CakeVerifyTmaPass> {
  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      int64_t clusterSize = 1;
      for (int64_t d : kernel.getClusterDims())
        clusterSize *= d;
      kernel.walk([&](Operation *op) {
        if (auto load = dyn_cast<TmaLoadOp>(op)) {
          if (Value mask = load.getMulticast()) {
            std::optional<int64_t> m = getConstantIntValue(mask);
            // Ranks [0, clusterSize) exist; the mask is 16 bits wide.
            uint64_t valid = clusterSize >= 16 ? 0xffff : ((uint64_t{1} << clusterSize) - 1);
            if (m && (*m == 0 || (static_cast<uint64_t>(*m) & ~valid) != 0)) {
              ok = false;
              InFlightDiagnostic diag = emitFinding(op, "tma.multicast-mask")
                                        << "expected a multicast mask of the cluster's "
                                        << clusterSize << " block ranks (a nonzero subset of 0x"
                                        << llvm::utohexstr(valid) << "), got 0x"
                                        << llvm::utohexstr(static_cast<uint64_t>(*m));
              if (Operation *def = mask.getDefiningOp())
                diag.attachNote(def->getLoc()) << "the mask is defined here";
              attachFix(diag, op, "tma.multicast-mask",
                        // Any in-cluster subset is not a fix: a block that expects the tile
                        // and is left out of the mask waits for bytes that never come.
                        "set the mask to the ranks that wait for this copy's bytes, a nonzero "
                        "subset of 0x" +
                            llvm::utohexstr(valid) +
                            " (bit r = block rank r of the cluster; 0x" +
                            llvm::utohexstr(valid) +
                            " when every block of the cluster expects the tile), or enlarge the "
                            "cluster");
            }
          }
          checkStrides(op, load.getDescriptor().getType(), load.getCoords());
          ok &= checkAlignment(op, load.getDescriptor().getType(), load.getCoords());
        } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
          checkStrides(op, store.getDescriptor().getType(), store.getCoords());
          ok &= checkAlignment(op, store.getDescriptor().getType(), store.getCoords());
        }
      });
      // The store groups' lifetimes along each thread's path.
      ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
      ok &= verifyAsyncAccesses(kernel, model);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
