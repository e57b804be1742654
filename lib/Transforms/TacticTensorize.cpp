//===- TacticTensorize.cpp - tactic: a warp's dot-product loop on tensor cores ===//
//
// The naive "one warp per row, lanes over candidates" reduction computes one dot product per
// (row, candidate) with scalar FMAs:
//
//   %row = block_id x * W + warp_id                              // W = warps per block
//   %r:n = scf.for %k = %lane to %K step 32 iter_args(%s = init) {        // L1
//     %dot = scf.for %j = 0 to D step 1 iter_args(%acc = 0.0) {            // L2
//       %a = cake.load %A[..., %row, %j]     %b = cake.load %B[..., %k, %j]  (f16 or bf16)
//       scf.yield (math.fma (extf %a) (extf %b) %acc)
//     }
//     (the epilogue: folds %dot for candidate %k into %s)
//   }
//   (the tail: warp reductions of %r over 32 lanes, then one lane stores row %row's result)
//
// On tensor cores the warp computes a 16-row x 8-candidate tile of dot products per
// `mma.sync.m16n8k16`. The tactic rewrites the kernel so that each warp owns `rows` rows, 16 or 32
// (rows * %row + 0..rows-1; the grid's x extent is divided by `rows`, rounded up):
//
//   - the A fragments of the warp's rows (D/16 per m16 tile, in registers for the whole loop) are
//     loaded once from global memory, masked;
//   - a loop over tiles of `tile` candidates: block barrier, the block copies the tile's B rows
//     (all D columns, masked: zero past the extent) into a padded shared buffer, block barrier;
//     then per 8 candidates: D/32 `cake.ldmatrix` x4 and D/16 `cake.mma_sync`, and the epilogue,
//     cloned, folds each accumulator element into the state of its row: lane t holds rows
//     t/4 and t/4 + 8, candidates 2 (t%4) and 2 (t%4) + 1 of each 8 (candidates >= %K skipped);
//   - with `prefetch`, each thread's share of the next tile is loaded into registers before the
//     current tile is computed and stored after a barrier (global latency behind the mma work);
//   - the tail, cloned per 8 rows (t/4, t/4 + 8, ...): the warp reductions now combine the 4
//     lanes of a quad (`lanes = 4`), and the lane test `%lane == 0` becomes `%lane % 4 == 0`.
//
// Options (include/Cake/Transforms/Tactics/Tensorize.td has the measured effect of each):
// `fastpath` gives tiles wholly below %K an epilogue without the k < %K guard; `buffers = 2` alternates two tile slots with one barrier per
// tile; `unroll` unrolls the loop over 8-candidate groups; `mma = wgmma` (sm_90a) lets each
// warpgroup (64 rows) issue wgmma m64nNk16 with N = tile, A from the same registers (wgmma's
// register fragment is mma.sync's per warp) and B from a 128-byte-swizzled copy of the tile; the
// accumulator layout per 8 columns is mma.sync's, so the epilogue and tail are the same.
//
// Each lane still visits its candidates in increasing order, and the quad reduction combines the
// lanes' states as the warp reduction did, so a fold that is order-independent across lanes (an
// argmin with ties to the smaller index, a sum up to rounding) gives the same result; the dot
// products are summed in the tensor core's order (fp32 accumulation).
//
// Preconditions (else [tactic.not-applicable] with the reason): see the pass description in
// Tactics/Tensorize.td. This file matches and checks them; TacticTensorizeRewrite.cpp rewrites.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/Target.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"
#include "TacticTensorize.h"
#include "TacticUtils.h"
#include "Cake/Analysis/ThreadModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

using tensorize::Site;

/// `v` is `cake.block_id x * warps + cake.warp_id` (either operand order).
bool isBlockWarpRow(Value v, int64_t warps) {
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [mulSide, warpSide] : {std::pair{add.getLhs(), add.getRhs()},
                                   std::pair{add.getRhs(), add.getLhs()}}) {
    auto mul = mulSide.getDefiningOp<arith::MulIOp>();
    if (!mul || !warpSide.getDefiningOp<WarpIdOp>())
      continue;
    for (auto [idSide, factor] : {std::pair{mul.getLhs(), mul.getRhs()},
                                  std::pair{mul.getRhs(), mul.getLhs()}}) {
      auto id = idSide.getDefiningOp<BlockIdOp>();
      if (id && id.getDim() == Dim::x && getConstantIntValue(factor) == warps)
        return true;
    }
  }
  return false;
}

/// Matches the reduction and checks the preconditions that depend on the kernel.
struct Matcher {
  bool wgmma; // mma = wgmma

  /// Why `loop` is not a reduction this tactic rewrites ("" when it is; `site` is filled).
  std::string reason(KernelOp kernel, ThreadModel &model, scf::ForOp loop, Site &site) {
    SmallVector<int64_t, 3> block = kernel.getBlockDims();
    if (block[1] != 1 || block[2] != 1)
      return "a block of more than one dimension";
    if (wgmma && !targetHas(kernel.getTarget(), FeatureWgmma))
      return "mma=wgmma needs target " + joinTargetsWith(FeatureWgmma, " or ") + ", the kernel's is " +
             kernel.getTarget().str();
    if (wgmma && kernel.getNumThreads() % 128 != 0)
      return "mma=wgmma needs whole warpgroups (a multiple of 128 threads per block)";
    if (std::string why = laneStridedLoopReason(model, loop); !why.empty())
      return why;
    auto inners = llvm::to_vector(loop.getBody()->getOps<scf::ForOp>());
    if (inners.size() != 1)
      return "expected one loop (the dot product) directly inside, got " +
             std::to_string(inners.size());
    site.rows = loop;
    site.dot = inners.front();
    if (std::string why = matchDot(model, site); !why.empty())
      return why;
    if (!isBlockWarpRow(site.row, kernel.getNumThreads() / 32))
      return "the row index is not cake.block_id x * (warps per block) + cake.warp_id";
    if (std::string why = checkEpilogue(model, site); !why.empty())
      return why;
    return checkTail(site);
  }

  /// L2: `for j = 0 to D step 1 iter_args(acc = 0.0)`, yielding fma(extf(A[.., row, j]),
  /// extf(B[.., k, j]), acc) (or mulf + addf), nothing else in its body.
  std::string matchDot(ThreadModel &model, Site &site) {
    scf::ForOp dot = site.dot;
    if (getConstantIntValue(dot.getLowerBound()) != 0 || getConstantIntValue(dot.getStep()) != 1)
      return "the dot-product loop does not run from 0 in steps of 1";
    std::optional<int64_t> depth = getConstantIntValue(dot.getUpperBound());
    if (!depth || *depth % 32 != 0 || *depth > 256)
      return "the dot-product length is not a constant multiple of 32 up to 256";
    site.depth = *depth;
    if (wgmma && site.depth % 64 != 0)
      return "mma=wgmma needs a dot-product length that is a multiple of 64 (128-byte rows)";
    if (dot.getNumRegionIterArgs() != 1 || !dot.getRegionIterArgs()[0].getType().isF32() ||
        !matchPattern(dot.getInitArgs()[0], m_AnyZeroFloat()))
      return "the dot-product loop does not carry one f32 accumulator starting at 0.0";
    Value acc = dot.getRegionIterArgs()[0];
    Value yielded = cast<scf::YieldOp>(dot.getBody()->getTerminator()).getOperand(0);
    Value lhs, rhs;
    unsigned expectedOps = 0;
    if (auto fma = yielded.getDefiningOp<math::FmaOp>(); fma && fma.getC() == acc) {
      lhs = fma.getA(), rhs = fma.getB(), expectedOps = 6;
    } else if (auto add = yielded.getDefiningOp<arith::AddFOp>()) {
      Value product = add.getLhs() == acc ? add.getRhs() : add.getRhs() == acc ? add.getLhs()
                                                                               : Value();
      if (auto mul = product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp())
        lhs = mul.getLhs(), rhs = mul.getRhs(), expectedOps = 7;
    }
    if (!lhs)
      return "the dot-product loop does not yield fma(a, b, acc) or acc + a * b";
    auto load = [](Value v) {
      auto ext = v.getDefiningOp<arith::ExtFOp>();
      return ext ? ext.getIn().getDefiningOp<LoadOp>() : LoadOp();
    };
    LoadOp l = load(lhs), r = load(rhs);
    if (!l || !r || l->getBlock() != dot.getBody() || r->getBlock() != dot.getBody())
      return "the product's factors are not extended loads in the dot-product loop";
    if (static_cast<unsigned>(std::distance(dot.getBody()->begin(), dot.getBody()->end())) !=
        expectedOps)
      return "the dot-product loop does more than load, extend and accumulate";
    Value k = site.rows.getInductionVar(), j = dot.getInductionVar();
    auto isB = [&](LoadOp op) {
      auto indices = op.getIndices();
      return indices.size() >= 2 && indices[indices.size() - 2] == k;
    };
    if (isB(l))
      std::swap(l, r);
    if (!isB(r) || isB(l))
      return "no factor reads [..., the candidate, j] and the other [..., a row, j]";
    for (LoadOp op : {l, r}) {
      auto type = dyn_cast<GlobalTensorType>(op.getSource().getType());
      if (!type || op.getWidth() != 1 || !(type.getElementType().isF16() ||
                                           type.getElementType().isBF16()))
        return "a factor is not a scalar f16/bf16 load of a global tensor";
      auto indices = op.getIndices();
      if (indices.back() != j)
        return "a factor's innermost index is not the dot-product loop's variable";
      for (Value index : indices.drop_back(2))
        if (!site.rows.isDefinedOutsideOfLoop(index) || !model.isInvariant(index))
          return "a factor's outer index is defined in the loop or differs between threads";
      ArrayAttr shape = type.getShape();
      auto extent = dyn_cast<IntegerAttr>(shape[shape.size() - 1]);
      if (extent && extent.getInt() < site.depth)
        return "a factor's innermost extent is shorter than the dot product";
    }
    if (cast<GlobalTensorType>(l.getSource().getType()).getElementType() !=
        cast<GlobalTensorType>(r.getSource().getType()).getElementType())
      return "the factors have different element types";
    site.aLoad = l, site.bLoad = r;
    site.row = l.getIndices()[l.getIndices().size() - 2];
    if (!site.rows.isDefinedOutsideOfLoop(site.row))
      return "the row index is defined inside the loop";
    return "";
  }

  /// The epilogue (L1's body but L2) is cloned once per accumulator element: it may only read
  /// memory and compute, and what it takes from outside L1 must be the same in every thread.
  std::string checkEpilogue(ThreadModel &model, Site &site) {
    std::string why;
    for (Operation &op : site.rows.getBody()->without_terminator()) {
      if (&op == site.dot.getOperation())
        continue;
      op.walk([&](Operation *nested) {
        if (!why.empty())
          return;
        if (!isa<LoadOp, scf::IfOp, scf::YieldOp>(nested) && !isMemoryEffectFree(nested))
          why = ("the loop body has '" + nested->getName().getStringRef() +
                 "' (only loads and side-effect-free ops can be cloned per element)")
                    .str();
        else if (isa<WarpReduceOp, WarpArgReduceOp>(nested))
          why = "the loop body has a warp reduction";
        for (Value operand : nested->getOperands()) {
          if (!why.empty() || !site.rows.isDefinedOutsideOfLoop(operand))
            continue;
          bool kernelArgument = isa<BlockArgument>(operand) &&
                                isa<KernelOp>(operand.getParentRegion()->getParentOp());
          bool invariant = matchPattern(operand, m_Constant()) || kernelArgument ||
                           (operand.getType().isIntOrIndex() && model.isInvariant(operand));
          if (!invariant)
            why = "the loop body uses a value from outside that may differ between threads";
        }
      });
      if (!why.empty())
        return why;
    }
    return "";
  }

  /// The tail (kernel-body ops after L1) is cloned once per 8 of the warp's rows.
  std::string checkTail(Site &site) {
    Operation *end = site.rows->getBlock()->getTerminator();
    for (Operation *op = site.rows->getNextNode(); op != end; op = op->getNextNode())
      site.tail.push_back(op);
    for (OpResult result : site.rows->getResults())
      for (Operation *user : result.getUsers()) {
        bool warpWide = false;
        if (auto r = dyn_cast<WarpReduceOp>(user))
          warpWide = r.getLanes() == 32;
        if (auto r = dyn_cast<WarpArgReduceOp>(user))
          warpWide = r.getLanes() == 32;
        if (!warpWide)
          return "a result of the loop is used other than by a 32-lane warp reduction";
      }
    std::string why;
    for (Operation *top : site.tail) {
      top->walk([&](Operation *op) {
        if (!why.empty())
          return;
        for (Value operand : op->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (def && isa<WarpIdOp, ThreadIdOp>(def))
            why = "the code after the loop uses the warp or thread id";
          if (def && isa<LaneIdOp>(def)) {
            auto cmp = dyn_cast<arith::CmpIOp>(op);
            if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
                getConstantIntValue(cmp.getLhs() == operand ? cmp.getRhs() : cmp.getLhs()) != 0)
              why = "the code after the loop uses the lane other than in `lane == 0`";
          }
        }
        if (!why.empty())
          return;
        auto usesRow = [&](ValueRange indices) { return llvm::is_contained(indices, site.row); };
        if (auto store = dyn_cast<StoreOp>(op)) {
          if (!usesRow(store.getIndices()) || !store.getMasked())
            why = "a store after the loop is not masked at the row index";
        } else if (auto load = dyn_cast<LoadOp>(op)) {
          if (usesRow(load.getIndices()) && !load.getMasked())
            why = "a load after the loop reads the row unmasked";
        } else if (!isa<scf::IfOp, scf::YieldOp>(op) && !isMemoryEffectFree(op)) {
          why = ("the code after the loop has '" + op->getName().getStringRef() + "'").str();
        }
      });
      if (!why.empty())
        return why;
    }
    return "";
  }

};

} // namespace

std::string CakeTacticTensorizeOp::checkOptions(const Options &o) {
  auto text = [](auto... parts) {
    std::string out;
    llvm::raw_string_ostream os(out);
    (os << ... << parts);
    return out;
  };
  if (o.rows != 16 && o.rows != 32)
    return text("expected rows 16 or 32, got ", o.rows);
  if (o.tile < 16 || o.tile > 256 || o.tile % 16 != 0)
    return text("expected tile a multiple of 16 in 16 .. 256, got ", o.tile);
  if (o.buffers != 1 && o.buffers != 2)
    return text("expected buffers 1 or 2, got ", o.buffers);
  if (o.unroll < 1 || (o.tile / 8) % o.unroll != 0)
    return text("expected unroll to divide tile / 8 = ", o.tile / 8, ", got ", o.unroll);
  if (o.mma != "sync" && o.mma != "wgmma")
    return text("expected mma 'sync' or 'wgmma', got '", o.mma, "'");
  if (o.mma == "wgmma" && o.rows != 16)
    return text("mma=wgmma takes rows=16 (a warpgroup's 4 warps own 64 rows), got ", o.rows);
  return "";
}

LogicalResult CakeTacticTensorizeOp::applyTactic(RewriterBase &rewriter, Operation *root,
                                                 const Options &options) {
  Matcher matcher{options.mma == "wgmma"};
  SmallVector<Site> sites;
  SmallVector<std::pair<Location, std::string>> reasons;
  root->walk([&](KernelOp kernel) {
    ThreadModel model(kernel);
    for (auto loop : kernel.getBody().front().getOps<scf::ForOp>()) {
      Site site;
      std::string why = matcher.reason(kernel, model, loop, site);
      if (why.empty()) {
        sites.push_back(site);
        break; // one reduction per kernel: the rewrite changes the kernel's rows
      }
      reasons.push_back({loop.getLoc(), why});
    }
  });
  if (sites.empty())
    return reportNothingQualifies(root, passArgument, "warp dot-product reduction",
                                  reasons);
  for (Site &site : sites) {
    auto kernel = site.rows->getParentOfType<KernelOp>();
    tensorize::rewrite(rewriter, kernel, site,
                       {options.tile, options.rows, options.buffers, options.unroll,
                        options.prefetch, options.fastpath, matcher.wgmma});
    if (failed(checkSharedMemoryLimit(kernel, passArgument, "the tile")))
      return failure();
  }
  return success();
}
