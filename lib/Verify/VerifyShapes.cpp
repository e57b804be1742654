//===- VerifyShapes.cpp - the kernel at the problem sizes its manifest allows ===//
//
// A kernel's manifest promises every problem size >= 1 (and 16-byte row strides where vector
// accesses or TMA need them). Bugs that only show for ragged sizes (an unmasked tail access, a
// warp shuffle under `lane < N`) are invisible to the general thread model, where a size is an
// unknown. This pass models a few concrete launches instead: each problem size bound to a ragged
// value, the first and the last block of the grid, and judges them with the same evaluators.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/IndexRange.h"
#include "Cake/Analysis/SymbolicBound.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/IR/HostNames.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "ShapeProbes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYSHAPESPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// Probe values: ragged against warps, tiles and blocks. A size that sets the row stride of a
/// tensor read with vector accesses or through TMA must keep 16-byte rows (the manifest requires
/// it), so it takes multiples of 16 that are ragged against every larger power of two.
constexpr int64_t kFreeSizes[] = {3, 33, 1001, 4099};
constexpr int64_t kAlignedSizes[] = {16, 48, 1008, 4112};

/// The symbols that size an inner dimension of a tensor accessed more than one element at a time
/// or described by a TMA parameter.
llvm::StringSet<> getStrideSymbols(KernelOp kernel) {
  llvm::StringSet<> out;
  auto addInner = [&](ArrayAttr shape) {
    for (Attribute extent : shape.getValue().drop_front())
      if (auto symbol = dyn_cast<StringAttr>(extent))
        out.insert(symbol.getValue());
  };
  for (BlockArgument arg : kernel.getBody().front().getArguments()) {
    auto tensor = dyn_cast<GlobalTensorType>(arg.getType());
    if (!tensor)
      continue;
    bool described = false;
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
      if (auto d = kernel.getArgAttrOfType<StringAttr>(i, "cake.describes"))
        described |= d.getValue() == getParamName(kernel, arg.getArgNumber());
    if (described || getTensorUse(kernel, arg).maxWidth > 1)
      addInner(tensor.getShape());
  }
  return out;
}

/// The sizes the kernel itself sees: those its grid depends on and those it reads with
/// cake.problem_size. Another size (an output's extent equal to the number of blocks, say) is
/// the host's to match to the grid; the extents it sets are not judged.
llvm::StringSet<> getObservedSymbols(KernelOp kernel) {
  llvm::StringSet<> out;
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  for (AffineExpr result : kernel.getGrid().getResults())
    result.walk([&](AffineExpr e) {
      if (auto symbol = dyn_cast<AffineSymbolExpr>(e); symbol && symbol.getPosition() < symbols.size())
        out.insert(symbols[symbol.getPosition()]);
    });
  kernel.walk([&](ProblemSizeOp op) { out.insert(op.getSymbol()); });
  return out;
}

/// The extent at the probe's sizes; nullopt for a size the kernel does not observe.
std::optional<int64_t> judgedExtent(Attribute extent, const ShapeProbe &probe,
                                    const llvm::StringSet<> &observed) {
  if (auto value = dyn_cast<IntegerAttr>(extent))
    return value.getInt();
  auto symbol = dyn_cast<StringAttr>(extent);
  if (!symbol || !observed.contains(symbol.getValue()))
    return std::nullopt;
  auto it = probe.sizes.find(symbol.getValue());
  if (it == probe.sizes.end())
    return std::nullopt;
  return it->second;
}

/// What one thread's index covers along one dimension of a global tensor: its values [lo, hi],
/// the last element touched (`last`: hi plus the vector's width on the innermost dimension) and
/// the dimension's extent at the probe; nullopt when the index or the extent is not judged.
struct Span {
  int64_t lo, hi, last, extent;
  bool inside() const { return lo >= 0 && last < extent; }
};

std::optional<Span> getSpan(Value index, unsigned dim, GlobalTensorType type, int64_t width,
                            int64_t t, IndexRanges &ranges, const ShapeProbe &probe,
                            const llvm::StringSet<> &observed) {
  std::optional<Interval> r = ranges.range(index, t);
  std::optional<int64_t> extent = judgedExtent(type.getShape()[dim], probe, observed);
  if (!r || !extent)
    return std::nullopt;
  int64_t last = r->hi + (dim + 1 == type.getRank() ? width - 1 : 0);
  return Span{r->lo, r->hi, last, *extent};
}

/// The first element at or after `from` that no interval of `sorted` (ordered by `lo`) covers.
int64_t firstUncovered(ArrayRef<Interval> sorted, int64_t from) {
  for (Interval i : sorted) {
    if (i.lo > from)
      break;
    from = std::max(from, i.hi + 1);
  }
  return from;
}

void sortIntervals(std::vector<Interval> &intervals) {
  llvm::sort(intervals, [](Interval a, Interval b) { return a.lo < b.lo; });
}

} // namespace

/// The probe size sets: every symbol bound, the grid extents evaluated (an extent below 1 is
/// kept: a grid with no block for an allowed shape is itself a finding).
std::vector<ShapeProbe> mlir::cake::getProbeSizeSets(KernelOp kernel) {
  llvm::StringSet<> strided = getStrideSymbols(kernel);
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  // A kernel specialized in every symbol (or with none) has one size set to probe.
  bool allFixed = llvm::all_of(
      symbols, [&](StringRef symbol) { return kernel.getSpecializedSize(symbol).has_value(); });
  std::vector<ShapeProbe> out;
  for (unsigned i = 0; i < (allFixed ? 1 : std::size(kFreeSizes)); ++i) {
    ShapeProbe probe;
    for (StringRef symbol : symbols)
      probe.sizes[symbol] = kernel.getSpecializedSize(symbol).value_or(
          strided.contains(symbol) ? kAlignedSizes[i] : kFreeSizes[i]);
    if (bindGrid(kernel, probe))
      out.push_back(std::move(probe));
  }
  return out;
}

bool mlir::cake::hasBlocks(const ShapeProbe &probe) {
  return probe.gridDim[0] >= 1 && probe.gridDim[1] >= 1 && probe.gridDim[2] >= 1;
}

/// "N = 1001, D = 16 (block (3, 0, 0))": the launch a finding happens in (its sizes only when
/// `withBlock` is false).
std::string mlir::cake::describeProbe(KernelOp kernel, const ShapeProbe &probe, bool withBlock) {
  std::string text;
  for (StringRef symbol : kernel.getSymbolNames())
    text += (text.empty() ? "" : ", ") + symbol.str() + " = " +
            std::to_string(probe.sizes.lookup(symbol));
  if (!withBlock)
    return text;
  return text + " (block (" + std::to_string(probe.blockId[0]) + ", " +
         std::to_string(probe.blockId[1]) + ", " + std::to_string(probe.blockId[2]) + "))";
}

namespace {
std::vector<ShapeProbe> getSizeSets(KernelOp kernel) { return getProbeSizeSets(kernel); }


/// The launches to model: for each probe size set with blocks, the first block and the last
/// block of the grid (the one with the ragged tile).
std::vector<ShapeProbe> getProbes(KernelOp kernel) {
  std::vector<ShapeProbe> out;
  for (ShapeProbe &probe : getSizeSets(kernel)) {
    if (!hasBlocks(probe))
      continue;
    ShapeProbe last = probe;
    for (unsigned d = 0; d < 3; ++d)
      last.blockId[d] = probe.gridDim[d] - 1;
    out.push_back(std::move(probe));
    if (last.blockId[0] || last.blockId[1] || last.blockId[2])
      out.push_back(std::move(last));
  }
  return out;
}

/// True when thread `t` surely reaches `op` at least once in this launch: every enclosing
/// scf.if's condition is known and taken, every enclosing loop can run, every role holds `t`.
bool reachesSurely(Operation *op, int64_t t, ThreadModel &model, IndexRanges &ranges) {
  for (Operation *child = op, *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       child = parent, parent = parent->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      const Lat &c = model.eval(ifOp.getCondition())[t];
      bool thenRegion = child->getParentRegion() == &ifOp.getThenRegion();
      if (c.kind != Lat::Known || (c.value != 0) != thenRegion)
        return false;
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      std::optional<Interval> lb = ranges.range(forOp.getLowerBound(), t);
      std::optional<Interval> ub = ranges.range(forOp.getUpperBound(), t);
      if (!lb || !ub || ub->hi <= lb->lo)
        return false;
    } else if (auto role = dyn_cast<RoleOp>(parent)) {
      if (t / 32 < static_cast<int64_t>(role.getFirst()) ||
          t / 32 >= static_cast<int64_t>(role.getLast()))
        return false;
    } else if (!isa<WarpRolesOp, scf::ExecuteRegionOp>(parent)) {
      return false;
    }
  }
  return true;
}

/// False when thread `t` certainly never reaches `op` in this launch: an enclosing scf.if known
/// not taken, an enclosing loop that runs no iteration, a role without `t`.
bool mayReach(Operation *op, int64_t t, ThreadModel &model, IndexRanges &ranges) {
  if (model.reach(op)[t].kind == Reach::Never)
    return false;
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    auto forOp = dyn_cast<scf::ForOp>(parent);
    if (!forOp)
      continue;
    std::optional<Interval> lb = ranges.range(forOp.getLowerBound(), t);
    std::optional<Interval> ub = ranges.range(forOp.getUpperBound(), t);
    if (lb && ub && ub->hi <= lb->lo)
      return false;
  }
  return true;
}

struct CakeVerifyShapesPass : KernelCheckPass<CakeVerifyShapesPass, cake::impl::CakeVerifyShapesPassBase> {
  bool verifyKernel(KernelOp kernel) {
    ThreadModel general(kernel);
    llvm::StringSet<> observed = getObservedSymbols(kernel);
    llvm::DenseSet<Operation *> reported;
    bool ok = verifyCoverage(kernel, general.getNumThreads(), observed);
    for (const ShapeProbe &probe : getProbes(kernel)) {
      ThreadModel model(kernel, probe);
      IndexRanges ranges(model);
      ok &= verifyBounds(kernel, probe, model, ranges, observed, reported);
      ok &= verifyCollectives(kernel, probe, general, model, reported);
      ok &= verifyArrivals(kernel, probe, general, model, reported);
      ok &= verifySharedReads(kernel, probe, model, ranges, reported);
      ok &= verifyPadIdentity(kernel, probe, model, ranges, observed, reported);
    }
    warnIndexBounds(kernel, general, reported);
    return ok;
  }

  /// Calls `fn(op, access, type)` for each access with an index per dimension to a global
  /// tensor, of every op without `masked` not yet in `reported`; `fn` returns true when it
  /// reported the op (one finding per op: its other accesses are skipped).
  template <typename Fn>
  static void forEachUnmaskedGlobalAccess(KernelOp kernel,
                                          const llvm::DenseSet<Operation *> &reported, Fn fn) {
    kernel.walk([&](MemoryAccessOpInterface op) {
      if (reported.contains(op) || op->hasAttr("masked"))
        return;
      for (const MemoryAccess &access : getMemoryAccesses(op)) {
        auto type = dyn_cast<GlobalTensorType>(access.buffer.getType());
        if (type && access.indices.size() == type.getRank() && fn(op, access, type))
          return;
      }
    });
  }

  /// The name the kernel gives the global tensor `access` reads or writes.
  static std::string accessedTensorName(KernelOp kernel, const MemoryAccess &access) {
    return getParamName(kernel, getAccessedGlobalTensor(kernel, access.buffer).getArgNumber());
  }

  /// An unmasked access to a global tensor at an index computed from loaded data (the offsets
  /// of variable-length sequences) is judged at no probe size: the data is unknown. Its bounds
  /// at the access (SymbolicBound: the conditions around it, clamps, loop bounds) must put it
  /// below the extent; a warning when the tightest bound they give is the extent or more. An
  /// index nothing relates to the extent (a gather) is the host's duty and not judged.
  static void warnIndexBounds(KernelOp kernel, ThreadModel &general,
                              const llvm::DenseSet<Operation *> &reported) {
    SymbolicBounds bounds(general);
    forEachUnmaskedGlobalAccess(
        kernel, reported, [&](Operation *op, const MemoryAccess &access, GlobalTensorType type) {
          for (auto [dim, index] : llvm::enumerate(access.indices)) {
            if (!bounds.dependsOnLoad(index))
              continue;
            Attribute extent = type.getShape()[dim];
            LinearForm limit;
            if (auto symbol = dyn_cast<StringAttr>(extent))
              limit.terms.push_back(
                  {SymbolicBounds::sizeAtom(op->getContext(), symbol.getValue()), 1});
            else if (auto value = dyn_cast<IntegerAttr>(extent))
              limit.constant = value.getInt();
            else
              continue;
            // The last element touched: the vector's width on the innermost dimension.
            int64_t width = dim + 1 == type.getRank() ? access.width - 1 : 0;
            std::optional<int64_t> excess;
            bool below = false;
            for (const LinearForm &f : bounds.upper(index, op)) {
              LinearForm d = f + limit.scaled(-1);
              if (!d.isConstant())
                continue;
              if (d.constant + width < 0) {
                below = true;
                break;
              }
              excess = excess ? std::min(*excess, d.constant + width) : d.constant + width;
            }
            if (below || !excess)
              continue;
            std::string name = accessedTensorName(kernel, access);
            std::string extentText = getExtentText(extent);
            InFlightDiagnostic diag =
                emitFindingWarning(op, "shape.index-bound")
                << "expected index " << dim << " of '" << name << "' below " << extentText
                << " wherever the access runs, but the conditions around it bound it only by "
                << extentText << (*excess ? " + " + std::to_string(*excess) : std::string());
            attachFix(diag, op, "shape.index-bound",
                      "add `masked` to the access, clamp the index to the last valid element "
                      "(arith.minui with the last index below " +
                          extentText +
                          "), or run the access under a condition that keeps it below " +
                          extentText);
            return true;
          }
          return false;
        });
  }

  /// The max or min a value feeds directly (through float extensions and truncations): the op
  /// and whether it is a max; null when none.
  static std::pair<Operation *, bool> getExtremumUser(Value v) {
    for (Operation *user : v.getUsers()) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(user)) {
        if (auto found = getExtremumUser(user->getResult(0)); found.first)
          return found;
        continue;
      }
      if (isa<arith::MaximumFOp, arith::MaxNumFOp>(user))
        return {user, true};
      if (isa<arith::MinimumFOp, arith::MinNumFOp>(user))
        return {user, false};
      if (auto reduce = dyn_cast<WarpReduceOp>(user); reduce && reduce.getKind() != ReduceKind::sum)
        return {user, reduce.getKind() == ReduceKind::max};
      if (auto reduce = dyn_cast<vector::ReductionOp>(user)) {
        auto kind = reduce.getKind();
        if (kind == vector::CombiningKind::MAXIMUMF || kind == vector::CombiningKind::MAXNUMF)
          return {user, true};
        if (kind == vector::CombiningKind::MINIMUMF || kind == vector::CombiningKind::MINNUMF)
          return {user, false};
      }
    }
    return {nullptr, false};
  }

  /// A masked load's padded elements take its pad value; when they feed a max (min) directly,
  /// the default pad 0 is wrong unless every element is >= 0 (<= 0). Judged where padding
  /// happens at a probe size (the index leaves the tensor in a thread that surely reaches the
  /// load) and only for the default pad: an explicit `pad(...)` states the author's intent.
  static bool verifyPadIdentity(KernelOp kernel, const ShapeProbe &probe, ThreadModel &model,
                                IndexRanges &ranges, const llvm::StringSet<> &observed,
                                llvm::DenseSet<Operation *> &reported) {
    bool ok = true;
    kernel.walk([&](LoadOp load) {
      if (!load.getMasked() || load.getPad() || reported.contains(load) ||
          !isa<FloatType>(getElementTypeOrSelf(load.getResult().getType())))
        return;
      auto type = dyn_cast<GlobalTensorType>(load.getSource().getType());
      auto [user, isMax] = getExtremumUser(load.getResult());
      if (!type || !user || load.getIndices().size() != type.getRank())
        return;
      int64_t width = 1;
      if (auto vec = dyn_cast<VectorType>(load.getResult().getType()))
        width = vec.getNumElements();
      for (int64_t t = 0; t < model.getNumThreads(); ++t) {
        if (!reachesSurely(load, t, model, ranges))
          continue;
        // Padding matters along a reduced dimension (the index varies over the loop or across
        // the lanes of the warp) while the other dimensions stay inside: a row wholly past the
        // edge is discarded work, not a wrong max.
        std::optional<unsigned> padded;
        bool inside = true;
        for (auto [dim, index] : llvm::enumerate(load.getIndices())) {
          std::optional<Span> span = getSpan(index, dim, type, width, t, ranges, probe, observed);
          if (!span) {
            inside = false;
            break;
          }
          if (span->inside())
            continue;
          bool reduced = span->lo != span->hi;
          int64_t warpEnd = std::min<int64_t>(t / 32 * 32 + 32, model.getNumThreads());
          for (int64_t u = t / 32 * 32; !reduced && u < warpEnd; ++u) {
            std::optional<Interval> other = ranges.range(index, u);
            reduced = !other || other->lo != span->lo || other->hi != span->hi;
          }
          if (span->lo >= 0 && reduced && !padded)
            padded = dim;
          else
            inside = false;
        }
        if (inside && padded) {
          unsigned dim = *padded;
          ok = false;
          reported.insert(load);
          StringRef what = isMax ? "max" : "min";
          StringRef identity = isMax ? "-inf" : "+inf";
          InFlightDiagnostic diag = emitFinding(load, "shape.pad-identity")
                                    << "expected the padding of a masked load that feeds a "
                                    << what << " to be the " << what << "'s identity ("
                                    << identity << "), but it is the default 0: with "
                                    << describeProbe(kernel, probe) << " thread " << t
                                    << " pads index " << dim << " past "
                                    << getExtentText(type.getShape()[dim]);
          diag.attachNote(user->getLoc()) << "the padded elements reach this " << what;
          attachFix(diag, load, "shape.pad-identity",
                    std::string("pad with the identity (`masked pad(%c : f32)` with %c = ") +
                        (isMax ? "0xFF800000" : "0x7F800000") +
                        "), or write `pad(...)` explicitly if 0 is right for the data");
          return;
        }
      }
    });
    return ok;
  }

  /// Shared memory starts with stale values: an element a thread surely reads must be one some
  /// thread of the block may write. Writes are over-approximated (every thread that may reach a
  /// cake.store, every value its index may take; program order ignored), reads kept exact (a
  /// thread that surely reaches the load, an index with one value), so a read outside every
  /// write's range is a read of an element nothing writes. Buffers written any other way (TMA,
  /// cp.async, stmatrix) are not judged.
  static bool verifySharedReads(KernelOp kernel, const ShapeProbe &probe, ThreadModel &model,
                                IndexRanges &ranges, llvm::DenseSet<Operation *> &reported) {
    llvm::MapVector<Value, SmallVector<std::pair<Operation *, MemoryAccess>>> reads, writes;
    llvm::DenseSet<Value> unjudged;
    kernel.walk([&](Operation *op) {
      for (const MemoryAccess &access : getMemoryAccesses(op)) {
        auto type = dyn_cast<SmemType>(access.buffer.getType());
        if (!type)
          continue;
        bool plain = access.indices.size() == type.getRank() && isa<LoadOp, StoreOp>(op);
        if (!access.isRead() && !isa<StoreOp>(op))
          unjudged.insert(access.buffer);
        if (!plain)
          continue;
        (access.isRead() ? reads : writes)[access.buffer].push_back({op, access});
      }
    });
    bool ok = true;
    for (auto &[buffer, loads] : reads) {
      if (unjudged.contains(buffer))
        continue;
      auto type = cast<SmemType>(buffer.getType());
      // Per dimension, the union of what any write may cover.
      std::vector<std::vector<Interval>> written(type.getRank());
      bool known = true;
      for (auto &[op, access] : writes.lookup(buffer))
        for (int64_t t = 0; known && t < model.getNumThreads(); ++t) {
          if (!mayReach(op, t, model, ranges))
            continue;
          for (auto [dim, index] : llvm::enumerate(access.indices)) {
            std::optional<Interval> r = ranges.range(index, t);
            if (!r) {
              known = false;
              break;
            }
            int64_t width = dim + 1 == type.getRank() ? access.width : 1;
            written[dim].push_back({r->lo, r->hi + width - 1});
          }
        }
      if (!known)
        continue;
      for (std::vector<Interval> &intervals : written)
        sortIntervals(intervals);
      for (auto &[op, access] : loads) {
        if (reported.contains(op))
          continue;
        for (int64_t t = 0; t < model.getNumThreads() && !reported.contains(op); ++t) {
          if (!reachesSurely(op, t, model, ranges))
            continue;
          for (auto [dim, index] : llvm::enumerate(access.indices)) {
            std::optional<Interval> r = ranges.range(index, t);
            if (!r || r->lo != r->hi)
              continue;
            int64_t width = dim + 1 == type.getRank() ? access.width : 1;
            if (firstUncovered(written[dim], r->lo) > r->lo + width - 1)
              continue;
            ok = false;
            reported.insert(op);
            InFlightDiagnostic diag =
                emitFinding(op, "shape.uninitialized-smem")
                << "expected every shared-memory element a thread reads to be written first, but "
                << "with " << describeProbe(kernel, probe) << " thread " << t << " reads index "
                << r->lo << " of dimension " << dim << ", which no store to the buffer writes";
            if (Operation *alloc = buffer.getDefiningOp())
              diag.attachNote(alloc->getLoc()) << "the buffer is allocated here";
            attachFix(diag, op, "shape.uninitialized-smem",
                      "write every element the readers read (threads without data store the "
                      "operation's identity, e.g. 0 for a sum), or read only what was written");
            break;
          }
        }
      }
    }
    return ok;
  }

  /// An mbarrier's arrivals per phase match its init's count at the probe's sizes, where the
  /// general model could not decide who arrives (an arrival under `i < N`, say).
  static bool verifyArrivals(KernelOp kernel, const ShapeProbe &probe, ThreadModel &general,
                             ThreadModel &model, llvm::DenseSet<Operation *> &reported) {
    bool ok = true;
    kernel.walk([&](MbarrierInitOp init) {
      if (reported.contains(init))
        return;
      SmallVector<Operation *> arrivals;
      for (Operation *user : init.getBarriers().getUsers())
        if (isMbarrierArrival(user))
          arrivals.push_back(user);
      SmallVector<ArrivalGroup> before = countArrivals(general, init, arrivals);
      SmallVector<ArrivalGroup> now = countArrivals(model, init, arrivals);
      for (const ArrivalGroup &group : now) {
        // What cake-verify-mbarrier judged already is not repeated.
        bool judged = llvm::any_of(before, [&](const ArrivalGroup &b) {
          return b.loop == group.loop && b.exact;
        });
        if (judged || !group.exact || group.threads == int64_t(init.getCount()))
          continue;
        ok = false;
        reported.insert(init);
        InFlightDiagnostic diag = emitFinding(init, "shape.arrival-count")
                                  << "expected " << init.getCount()
                                  << " arrivals per phase (the init's count) for every shape the "
                                     "manifest allows, but with "
                                  << describeProbe(kernel, probe) << " " << group.threads
                                  << " threads arrive";
        for (auto [op, repeat] : llvm::zip(group.ops, group.repeats))
          describeArrival(diag.attachNote(op->getLoc()), model, op, repeat);
        attachFix(diag, init, "shape.arrival-count",
                  "arrive in every thread the count includes, whatever the sizes (keep the "
                  "arrival out of conditions on problem sizes; mask the work instead)");
        return;
      }
    });
    return ok;
  }

  /// Coverage is judged on launches of at most this many blocks and block x thread evaluations.
  static constexpr int64_t kMaxCoverageBlocks = 512, kMaxCoverageThreads = int64_t(1) << 17;

  /// A store to an output tensor: its indices and how many elements it writes along each of them.
  struct Writer {
    Operation *op;
    SmallVector<Value> indices;
    SmallVector<int64_t> footprint;
  };

  /// The outputs (tensors written and never read) whose every writer has a known footprint
  /// (cake.store: one element, the vector's width innermost; cake.tma.store: its box). Atomics
  /// and fragment stores make a tensor unjudged.
  static llvm::MapVector<BlockArgument, SmallVector<Writer>> getOutputs(KernelOp kernel) {
    llvm::MapVector<BlockArgument, SmallVector<Writer>> outputs;
    llvm::DenseSet<BlockArgument> unjudged;
    kernel.walk([&](Operation *op) {
      for (const MemoryAccess &access : getMemoryAccesses(op)) {
        BlockArgument tensor = getAccessedGlobalTensor(kernel, access.buffer);
        if (!tensor || access.isRead())
          continue;
        auto type = cast<GlobalTensorType>(tensor.getType());
        Writer w{op, SmallVector<Value>(access.indices), SmallVector<int64_t>(type.getRank(), 1)};
        if (auto tma = dyn_cast<TmaType>(access.buffer.getType());
            tma && isa<TmaStoreOp>(op) && tma.getBox().size() == type.getRank())
          w.footprint.assign(tma.getBox().begin(), tma.getBox().end());
        else if (isa<StoreOp>(op) && isa<GlobalTensorType>(access.buffer.getType()))
          w.footprint.back() = access.width;
        else
          unjudged.insert(tensor);
        if (w.indices.size() != type.getRank())
          unjudged.insert(tensor);
        outputs[tensor].push_back(std::move(w));
      }
    });
    llvm::MapVector<BlockArgument, SmallVector<Writer>> out;
    for (auto &[tensor, writers] : outputs)
      if (!unjudged.contains(tensor) && !getTensorUse(kernel, tensor).reads)
        out[tensor] = std::move(writers);
    return out;
  }

  /// Every element of an output is written by some thread of some block at each probe size:
  /// judged per dimension on the union of the written index ranges over all blocks and threads.
  /// The ranges over-approximate what is written (every thread that may reach a store, every
  /// value an index may take), so a gap in their union is an element nothing writes.
  static bool verifyCoverage(KernelOp kernel, int64_t numThreads,
                             const llvm::StringSet<> &observed) {
    // A grid without blocks for an allowed shape computes nothing: wrong for any kernel that
    // writes a global tensor (an output, or one updated in place).
    Operation *firstWrite = nullptr;
    BlockArgument written;
    kernel.walk([&](Operation *op) {
      for (const MemoryAccess &access : getMemoryAccesses(op))
        if (!firstWrite && !access.isRead())
          if (BlockArgument tensor = getAccessedGlobalTensor(kernel, access.buffer))
            firstWrite = op, written = tensor;
    });
    if (!firstWrite)
      return true;
    std::vector<ShapeProbe> sizeSets = getSizeSets(kernel);
    for (const ShapeProbe &probe : sizeSets) {
      if (hasBlocks(probe))
        continue;
      InFlightDiagnostic diag = emitFinding(firstWrite, "shape.uncovered-output")
                                << "expected every element of '"
                                << getParamName(kernel, written.getArgNumber())
                                << "' to be written for every shape the manifest allows, but "
                                << "with " << describeProbe(kernel, probe, /*withBlock=*/false)
                                << " the grid has no block";
      diag.attachNote(kernel.getLoc()) << "the grid is " << AffineMapAttr::get(kernel.getGrid());
      attachFix(diag, firstWrite, "shape.uncovered-output",
                "round the grid up (ceildiv) and mask the ragged tile's accesses");
      return false;
    }
    auto outputs = getOutputs(kernel);
    if (outputs.empty())
      return true;
    bool ok = true;
    llvm::DenseSet<BlockArgument> reported;
    for (const ShapeProbe &probe : sizeSets) {
      int64_t blocks = probe.gridDim[0] * probe.gridDim[1] * probe.gridDim[2];
      if (blocks > kMaxCoverageBlocks || blocks * numThreads > kMaxCoverageThreads)
        continue;
      // Per output and dimension, the written intervals; an output whose index range is
      // unknown somewhere drops out of this probe.
      llvm::DenseMap<BlockArgument, std::vector<std::vector<Interval>>> written;
      llvm::DenseSet<BlockArgument> unknown;
      for (int64_t z = 0; z < probe.gridDim[2]; ++z)
        for (int64_t y = 0; y < probe.gridDim[1]; ++y)
          for (int64_t x = 0; x < probe.gridDim[0]; ++x) {
            ShapeProbe block = probe;
            block.blockId[0] = x, block.blockId[1] = y, block.blockId[2] = z;
            ThreadModel model(kernel, block);
            IndexRanges ranges(model);
            for (auto &[tensor, writers] : outputs) {
              if (unknown.contains(tensor) || reported.contains(tensor))
                continue;
              auto &dims = written[tensor];
              dims.resize(writers.front().indices.size());
              for (const Writer &w : writers) {
                for (int64_t t = 0; t < model.getNumThreads() && !unknown.contains(tensor); ++t) {
                  if (!mayReach(w.op, t, model, ranges))
                    continue;
                  for (auto [dim, index] : llvm::enumerate(w.indices)) {
                    std::optional<Interval> r = ranges.range(index, t);
                    if (!r) {
                      unknown.insert(tensor);
                      break;
                    }
                    dims[dim].push_back({r->lo, r->hi + w.footprint[dim] - 1});
                  }
                }
              }
            }
          }
      for (auto &[tensor, writers] : outputs) {
        if (unknown.contains(tensor) || reported.contains(tensor) || !written.count(tensor))
          continue;
        auto type = cast<GlobalTensorType>(tensor.getType());
        for (auto [dim, intervals] : llvm::enumerate(written[tensor])) {
          std::optional<int64_t> extent = judgedExtent(type.getShape()[dim], probe, observed);
          if (!extent)
            continue;
          sortIntervals(intervals);
          int64_t covered = firstUncovered(intervals, 0); // [0, covered) is written
          if (covered >= *extent)
            continue;
          ok = false;
          reported.insert(tensor);
          std::string sizes = describeProbe(kernel, probe, /*withBlock=*/false);
          InFlightDiagnostic diag =
              emitFinding(writers.front().op, "shape.uncovered-output")
              << "expected every element of '" << getParamName(kernel, tensor.getArgNumber())
              << "' to be written for every shape the manifest allows, but "
              << (sizes.empty() ? "" : "with " + sizes + " ") << "no block writes index " << covered << " of dimension " << dim << " (extent "
              << *extent << ")";
          attachFix(diag, writers.front().op, "shape.uncovered-output",
                    "cover the ragged tail: round the grid (or a persistent block's tile count) "
                    "up with ceildiv and mask the last tile's accesses");
          break;
        }
      }
    }
    return ok;
  }

  /// An access without `masked` to a global tensor (not through TMA, whose copies clip at the
  /// tensor's edge) stays inside the tensor in every thread that surely reaches it.
  static bool verifyBounds(KernelOp kernel, const ShapeProbe &probe, ThreadModel &model,
                           IndexRanges &ranges, const llvm::StringSet<> &observed,
                           llvm::DenseSet<Operation *> &reported) {
    bool ok = true;
    forEachUnmaskedGlobalAccess(
        kernel, reported, [&](Operation *op, const MemoryAccess &access, GlobalTensorType type) {
          for (int64_t t = 0; t < model.getNumThreads(); ++t) {
            if (!reachesSurely(op, t, model, ranges))
              continue;
            for (auto [dim, index] : llvm::enumerate(access.indices)) {
              std::optional<Span> span =
                  getSpan(index, dim, type, access.width, t, ranges, probe, observed);
              if (!span || span->inside())
                continue;
              ok = false;
              reported.insert(op);
              std::string name = accessedTensorName(kernel, access);
              InFlightDiagnostic diag = emitFinding(op, "shape.out-of-bounds")
                                        << "expected index " << dim << " of '" << name
                                        << "' in [0, " << getExtentText(type.getShape()[dim])
                                        << ") for every shape the manifest allows, but "
                                        << "with " << describeProbe(kernel, probe) << " thread "
                                        << t << " reaches "
                                        << (span->lo < 0 ? span->lo : span->last);
              attachFix(diag, op, "shape.out-of-bounds",
                        "add `masked` to the access (out-of-range elements read as the pad value "
                        "and are not written), or bound the index by " +
                            getExtentText(type.getShape()[dim]) + " in the loop or the grid");
              return true;
            }
          }
          return false;
        });
    return ok;
  }

  /// Collectives the general model cannot judge (their executors depend on a problem size) run
  /// in whole warps, warpgroups and blocks at the probe's sizes.
  static bool verifyCollectives(KernelOp kernel, const ShapeProbe &probe, ThreadModel &general,
                                ThreadModel &model, llvm::DenseSet<Operation *> &reported) {
    bool ok = true;
    int64_t threads = model.getNumThreads();
    kernel.walk([&](Operation *op) {
      bool barrier = isBlockBarrier(op);
      int64_t group = barrier ? threads : getCollectiveGroup(op);
      if (!group || reported.contains(op))
        return;
      // What cake-verify-roles already judges (or reports) is not repeated here.
      if (barrier ? general.findDivergentAncestor(op) != nullptr || op->getParentOfType<RoleOp>()
                  : general.executors(op).exact)
        return;
      Executors ex = model.executors(op);
      if (!ex.exact)
        return;
      auto partial = findPartialGroup(ex.threads, threads, group);
      if (!partial)
        return;
      ok = false;
      reported.insert(op);
      StringRef what = barrier ? "the block" : group == 128 ? "warpgroup " : "warp ";
      InFlightDiagnostic diag = emitFinding(op, "shape.partial-collective")
                                << "expected all " << group << " threads of " << what
                                << (barrier ? "" : std::to_string(partial->first / group))
                                << " to execute this op for every shape the manifest allows, but "
                                << "with " << describeProbe(kernel, probe) << " "
                                << partial->second << " do";
      if (Operation *divergent = model.findDivergentAncestor(op))
        diag.attachNote(divergent->getLoc()) << "the threads split here, on a problem size";
      attachFix(diag, op, "shape.partial-collective",
                "execute the op in every thread and mask what it combines instead (out-of-range "
                "lanes contribute the operation's identity, e.g. -inf to a max)");
    });
    return ok;
  }
};
} // namespace
