//===- TacticTensorize.cpp - tactic: a warp's dot-product loop on mma.sync -===//
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
// Options (Passes.td has the measured effect of each): `fastpath` gives tiles wholly below %K an
// epilogue without the k < %K guard; `buffers = 2` alternates two tile slots with one barrier per
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
// Passes.td.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Passes.h"
#include "TacticUtils.h"
#include "ThreadModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKETACTICTENSORIZEPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {

/// The matched reduction.
struct Site {
  scf::ForOp rows; // L1
  scf::ForOp dot;  // L2
  LoadOp aLoad, bLoad;
  Value row;
  int64_t depth = 0; // D
  SmallVector<Operation *> tail;
};

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

struct CakeTacticTensorizePass
    : cake::impl::CakeTacticTensorizePassBase<CakeTacticTensorizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (rows != 16 && rows != 32) {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: expected rows 16 or 32, got "
          << int64_t(rows);
      return signalPassFailure();
    }
    if (tile < 16 || tile > 256 || tile % 16 != 0) {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: expected tile a multiple of 16 in "
             "16 .. 256, got "
          << int64_t(tile);
      return signalPassFailure();
    }
    if (buffers != 1 && buffers != 2) {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: expected buffers 1 or 2, got "
          << int64_t(buffers);
      return signalPassFailure();
    }
    if (unroll < 1 || (tile / 8) % unroll != 0) {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: expected unroll to divide tile / 8 = "
          << int64_t(tile / 8) << ", got " << int64_t(unroll);
      return signalPassFailure();
    }
    if (mma != "sync" && mma != "wgmma") {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: expected mma 'sync' or 'wgmma', got '"
          << mma << "'";
      return signalPassFailure();
    }
    if (mma == "wgmma" && rows != 16) {
      mlir::emitError(getOperation()->getLoc())
          << "[tactic.not-applicable] cake-tactic-tensorize: mma=wgmma takes rows=16 (a warpgroup's "
             "4 warps own 64 rows), got "
          << int64_t(rows);
      return signalPassFailure();
    }
    SmallVector<Site> sites;
    SmallVector<std::pair<Location, std::string>> reasons;
    getOperation()->walk([&](KernelOp kernel) {
      ThreadModel model(kernel);
      for (auto loop : kernel.getBody().front().getOps<scf::ForOp>()) {
        Site site;
        std::string why = reason(kernel, model, loop, site);
        if (why.empty()) {
          sites.push_back(site);
          break; // one reduction per kernel: the rewrite changes the kernel's rows
        }
        reasons.push_back({loop.getLoc(), why});
      }
    });
    if (sites.empty()) {
      (void)reportNothingQualifies(getOperation(), "cake-tactic-tensorize", "warp dot-product reduction", reasons);
      return signalPassFailure();
    }
    for (Site &site : sites) {
      auto kernel = site.rows->getParentOfType<KernelOp>();
      rewrite(kernel, site);
      if (failed(checkSharedMemoryLimit(kernel, "cake-tactic-tensorize", "the tile")))
        return signalPassFailure();
    }
  }

  /// Why `loop` is not a reduction this tactic rewrites ("" when it is; `site` is filled).
  std::string reason(KernelOp kernel, ThreadModel &model, scf::ForOp loop, Site &site) {
    SmallVector<int64_t, 3> block = kernel.getBlockDims();
    if (block[1] != 1 || block[2] != 1)
      return "a block of more than one dimension";
    if (mma == "wgmma" && kernel.getTarget() != "sm_90a")
      return "mma=wgmma needs target sm_90a, the kernel's is " + kernel.getTarget().str();
    if (mma == "wgmma" && kernel.getNumThreads() % 128 != 0)
      return "mma=wgmma needs whole warpgroups (a multiple of 128 threads per block)";
    if (!loop.getLowerBound().getDefiningOp<LaneIdOp>())
      return "the lower bound is not cake.lane_id";
    if (getConstantIntValue(loop.getStep()) != 32)
      return "the step is not 32";
    if (!model.isInvariant(loop.getUpperBound()))
      return "the upper bound differs between threads";
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
    if (mma == "wgmma" && site.depth % 64 != 0)
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

  void rewrite(KernelOp kernel, Site &site) {
    scf::ForOp loop = site.rows;
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    OpBuilder b(loop);
    // Constants once, at the top of the kernel; no `+ 0`: the output is read by people too.
    DenseMap<int64_t, Value> constants;
    OpBuilder kernelTop = OpBuilder::atBlockBegin(&kernel.getBody().front());
    auto index = [&](int64_t v) {
      Value &c = constants[v];
      if (!c)
        c = arith::ConstantIndexOp::create(kernelTop, loc, v).getResult();
      return c;
    };
    auto add = [&](OpBuilder &at, Value x, Value y) {
      if (getConstantIntValue(y) == 0)
        return x;
      return arith::AddIOp::create(at, loc, x, y).getResult();
    };
    auto mul = [&](OpBuilder &at, Value x, int64_t y) {
      return arith::MulIOp::create(at, loc, x, index(y)).getResult();
    };
    Type element = cast<GlobalTensorType>(site.aLoad.getSource().getType()).getElementType();
    int64_t depth = site.depth, tileRows = tile;
    Value lane = loop.getLowerBound();
    Value upper = loop.getUpperBound();
    Value group = arith::DivUIOp::create(b, loc, lane, index(4));
    Value quad = arith::RemUIOp::create(b, loc, lane, index(4));
    // The lane's rows: slot 2 m + h is row `rows * %row + 16 m + 8 h + t/4` (m-tile m, half h).
    int64_t mTiles = rows / 16, slots = 2 * mTiles;
    Value base = add(b, mul(b, site.row, rows), group);
    SmallVector<Value> slotRows;
    for (int64_t slot = 0; slot < slots; ++slot)
      slotRows.push_back(add(b, base, index(8 * slot)));

    // A fragments of each m-tile: element pairs (rows 16 m + g (+8), 16 kk + 2 q (+8)) in
    // mma.sync order.
    SmallVector<SmallVector<Value>> aFrags(mTiles);
    auto pairType = VectorType::get({2}, element);
    SmallVector<Value> aPrefix(site.aLoad.getIndices().drop_back(2));
    for (int64_t m = 0; m < mTiles; ++m) {
      Value top = slotRows[2 * m], bottom = slotRows[2 * m + 1];
      for (int64_t kk = 0; kk < depth / 16; ++kk) {
        Value col0 = add(b, mul(b, quad, 2), index(16 * kk));
        Value col1 = add(b, col0, index(8));
        SmallVector<Value> pairs;
        for (auto [r, col] : {std::pair{top, col0}, std::pair{bottom, col0}, std::pair{top, col1},
                              std::pair{bottom, col1}}) {
          SmallVector<Value> at(aPrefix);
          at.append({r, col});
          pairs.push_back(LoadOp::create(b, loc, pairType, site.aLoad.getSource(), at,
                                         b.getUnitAttr(), Value()));
        }
        Value lo = vector::ShuffleOp::create(b, loc, pairs[0], pairs[1], ArrayRef<int64_t>{0, 1, 2, 3});
        Value hi = vector::ShuffleOp::create(b, loc, pairs[2], pairs[3], ArrayRef<int64_t>{0, 1, 2, 3});
        aFrags[m].push_back(vector::ShuffleOp::create(b, loc, lo, hi,
                                                      ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
      }
    }

    // The shared tile of B rows; 8 elements (16 bytes) of padding keep ldmatrix conflict-free.
    // With `buffers = 2` the tiles alternate between two slots of one buffer.
    // For wgmma the tile is K-major in 64-column halves of 128-byte swizzled rows
    // ([D/64, tile, 64]), the layout its shared-memory descriptors describe.
    bool doubled = buffers == 2, warpgroup = mma == "wgmma";
    SmallVector<int64_t> tileShape{tileRows, depth};
    if (warpgroup)
      tileShape = {depth / 64, tileRows, 64};
    if (doubled)
      tileShape.insert(tileShape.begin(), 2);
    auto tileType = warpgroup ? SmemType::get(ctx, tileShape, element, /*swizzle=*/128, /*pad=*/0)
                              : SmemType::get(ctx, tileShape, element, /*swizzle=*/0, /*pad=*/8);
    Value buffer = AllocSmemOp::create(b, loc, tileType).getBuffer();
    // Indices of (row r, column col) of the tile in `slot` (null: the single buffer).
    auto tileIndex = [&](OpBuilder &at, Value slot, Value r, Value col) {
      SmallVector<Value> indices;
      if (slot)
        indices.push_back(slot);
      if (warpgroup)
        indices.append({arith::DivUIOp::create(at, loc, col, index(64)), r,
                        arith::RemUIOp::create(at, loc, col, index(64))});
      else
        indices.append({r, col});
      return indices;
    };
    Value tid = ThreadIdOp::create(b, loc, DimAttr::get(ctx, Dim::x));
    unsigned stateCount = loop.getNumRegionIterArgs();
    SmallVector<Value> init;
    for (int64_t slot = 0; slot < slots; ++slot)
      init.append(loop.getInitArgs().begin(), loop.getInitArgs().end());

    // The copy of a tile: 16-byte chunks, chunk e -> row e / (D/8), column 8 (e mod (D/8)).
    // With `prefetch` (when the chunks divide evenly among at most 8 per thread), each thread's
    // chunks of a later tile are loaded into registers while the current tile is computed.
    int64_t perRow = depth / 8, chunks = tileRows * perRow, threads = kernel.getNumThreads();
    int64_t perThread = chunks % threads == 0 ? chunks / threads : 0;
    bool inRegisters = prefetch && perThread >= 1 && perThread <= 8;
    auto chunkType = VectorType::get({8}, element);
    SmallVector<Value> bPrefix(site.bLoad.getIndices().drop_back(2));
    auto chunkAt = [&](OpBuilder &at, Value e) {
      Value r = arith::DivUIOp::create(at, loc, e, index(perRow));
      Value col = mul(at, arith::RemUIOp::create(at, loc, e, index(perRow)), 8);
      return std::pair{r, col};
    };
    auto loadChunk = [&](OpBuilder &at, Value base, Value r, Value col) {
      SmallVector<Value> source(bPrefix);
      source.append({add(at, base, r), col});
      return LoadOp::create(at, loc, chunkType, site.bLoad.getSource(), source, at.getUnitAttr(),
                            Value())
          .getResult();
    };
    SmallVector<std::pair<Value, Value>> mine; // this thread's chunks (prefetch only)
    if (inRegisters)
      for (int64_t c = 0; c < perThread; ++c)
        mine.push_back(chunkAt(b, add(b, tid, index(c * threads))));
    auto loadMine = [&](OpBuilder &at, Value base) {
      SmallVector<Value> values;
      for (auto [r, col] : mine)
        values.push_back(loadChunk(at, base, r, col));
      return values;
    };
    auto storeMine = [&](OpBuilder &at, ValueRange values, Value slot) {
      for (auto [value, rc] : llvm::zip_equal(values, mine))
        StoreOp::create(at, loc, value, buffer, tileIndex(at, slot, rc.first, rc.second));
    };
    // Without registers: the block copies the tile at `base` chunk by chunk.
    auto copyTile = [&](OpBuilder &at, Value base, Value slot) {
      auto copy = scf::ForOp::create(at, loc, tid, index(chunks), index(threads));
      OpBuilder c = OpBuilder::atBlockBegin(copy.getBody());
      auto [r, col] = chunkAt(c, copy.getInductionVar());
      StoreOp::create(c, loc, loadChunk(c, base, r, col), buffer, tileIndex(c, slot, r, col));
    };

    // A barrier after the tile's stores; wgmma reads through the async proxy, so each writer
    // fences its generic-proxy stores first.
    auto publish = [&](OpBuilder &at) {
      if (warpgroup)
        FenceProxyAsyncOp::create(at, loc);
      BarrierOp::create(at, loc);
    };

    // Double buffering: tile 0 is in slot 0 before the loop; iteration i computes slot i mod 2,
    // then writes tile i + 1 into the other slot (last read in iteration i - 1, before the
    // barrier that ends it), then one barrier. Single buffer: barrier, write, barrier, compute.
    if (doubled) {
      if (inRegisters) {
        storeMine(b, loadMine(b, index(0)), index(0));
        init.append(loadMine(b, index(tileRows)));
      } else {
        copyTile(b, index(0), index(0));
      }
      publish(b);
    } else if (inRegisters) {
      init.append(loadMine(b, index(0)));
    }
    auto tiles = scf::ForOp::create(b, loc, index(0), upper, index(tileRows), init);
    OpBuilder body = OpBuilder::atBlockBegin(tiles.getBody());
    Value k0 = tiles.getInductionVar();
    auto carried = tiles.getRegionIterArgs();
    auto prefetched = carried.drop_front(slots * stateCount);
    Value tileEnd = add(body, k0, index(tileRows)); // the next tile's first candidate
    SmallVector<Value> next;
    Value slot, otherSlot;
    if (doubled) {
      slot = arith::RemUIOp::create(
          body, loc, arith::DivUIOp::create(body, loc, k0, index(tileRows)), index(2));
      otherSlot = arith::SubIOp::create(body, loc, index(1), slot);
      if (inRegisters)
        next = loadMine(body, add(body, k0, index(2 * tileRows)));
    } else if (inRegisters) {
      storeMine(body, prefetched, Value());
      publish(body);
      next = loadMine(body, tileEnd);
    } else {
      BarrierOp::create(body, loc);
      copyTile(body, k0, Value());
      publish(body);
    }

    // The epilogue, cloned per row slot, folds candidate `k` (its dot product: `element(slot)`)
    // into the states; guarded by k < K unless the whole tile is below K.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    auto fold = [&](OpBuilder &g, ArrayRef<Value> states, Value k, bool guarded,
                    function_ref<Value(OpBuilder &, int64_t)> element) {
      OpBuilder then = g;
      scf::IfOp guard;
      if (guarded) {
        Value valid = arith::CmpIOp::create(g, loc, arith::CmpIPredicate::ult, k, upper);
        guard = scf::IfOp::create(g, loc, TypeRange(ValueRange(states)), valid,
                                  /*withElse=*/true);
        then = OpBuilder::atBlockBegin(guard.thenBlock());
      }
      SmallVector<Value> results;
      for (int64_t slotRow = 0; slotRow < slots; ++slotRow) {
        IRMapping map;
        map.map(loop.getInductionVar(), k);
        for (unsigned s = 0; s < stateCount; ++s)
          map.map(loop.getRegionIterArgs()[s], states[slotRow * stateCount + s]);
        map.map(site.dot.getResult(0), element(then, slotRow));
        for (Operation &op : loop.getBody()->without_terminator())
          if (&op != site.dot.getOperation())
            then.clone(op, map);
        for (Value v : yield.getOperands())
          results.push_back(map.lookupOrDefault(v));
      }
      if (!guarded)
        return results;
      scf::YieldOp::create(then, loc, results);
      OpBuilder otherwise = OpBuilder::atBlockBegin(guard.elseBlock());
      scf::YieldOp::create(otherwise, loc, states);
      return SmallVector<Value>(guard.getResults());
    };
    auto extract = [&](OpBuilder &at, Value vector, int64_t position) {
      return vector::ExtractOp::create(at, loc, vector, ArrayRef<int64_t>{position}).getResult();
    };

    // mma.sync, per 8 candidates: the 16 x 8 tile of dot products, then the epilogue per element.
    SmallVector<scf::ForOp> groupLoops; // unrolled once their results have users
    auto emitGroups = [&](OpBuilder &at, ValueRange initStates, bool guarded) {
      auto groups = scf::ForOp::create(at, loc, index(0), index(tileRows), index(8), initStates);
      OpBuilder g = OpBuilder::atBlockBegin(groups.getBody());
      Value n0 = groups.getInductionVar();
      Value ldRow = add(g, n0, arith::RemUIOp::create(g, loc, lane, index(8)));
      Value ldCol = mul(g, arith::DivUIOp::create(g, loc, lane, index(8)), 8);
      auto accType = VectorType::get({4}, g.getF32Type());
      Value zero = arith::ConstantOp::create(
          g, loc, accType, DenseElementsAttr::get(accType, g.getF32FloatAttr(0)));
      SmallVector<Value> acc(mTiles, zero);
      for (int64_t kk2 = 0; kk2 < depth / 32; ++kk2) {
        Value frag = LdmatrixOp::create(g, loc, VectorType::get({8}, element), buffer,
                                        tileIndex(g, slot, ldRow, add(g, ldCol, index(32 * kk2))),
                                        UnitAttr());
        for (int64_t half = 0; half < 2; ++half) {
          int64_t first = 4 * half;
          Value bFrag = vector::ShuffleOp::create(
              g, loc, frag, frag, ArrayRef<int64_t>{first, first + 1, first + 2, first + 3});
          for (int64_t m = 0; m < mTiles; ++m) // one B fragment, every m-tile
            acc[m] = MmaSyncOp::create(g, loc, acc[m], aFrags[m][2 * kk2 + half], bFrag);
        }
      }
      SmallVector<Value> states(groups.getRegionIterArgs());
      Value candidateBase = add(g, add(g, k0, n0), mul(g, quad, 2));
      for (int64_t column = 0; column < 2; ++column)
        states = fold(g, states, add(g, candidateBase, index(column)), guarded,
                      [&](OpBuilder &then, int64_t slotRow) {
                        return extract(then, acc[slotRow / 2], 2 * (slotRow % 2) + column);
                      });
      scf::YieldOp::create(g, loc, states);
      groupLoops.push_back(groups);
      return SmallVector<Value>(groups.getResults());
    };

    // wgmma: the warpgroup's 64 x tile dot products in D/16 steps (A from the registers), then
    // the epilogue per element: lane t of warp w holds rows 16 w + t/4 (+ 8) and columns
    // 8 j + 2 (t%4) (+ 1), elements 4 j + 2 h + c, as mma.sync's accumulator per 8 columns.
    auto emitWarpgroup = [&](OpBuilder &at, ValueRange initStates, bool guarded) {
      auto accType = VectorType::get({tileRows / 2}, at.getF32Type());
      Value acc = arith::ConstantOp::create(
          at, loc, accType, DenseElementsAttr::get(accType, at.getF32FloatAttr(0)));
      WgmmaFenceOp::create(at, loc);
      for (int64_t kk = 0; kk < depth / 16; ++kk) {
        SmallVector<Value> at4;
        if (slot)
          at4.push_back(slot);
        at4.append({index(kk / 4), index(0), index(16 * (kk % 4))});
        acc = WgmmaRegsOp::create(at, loc, acc, aFrags[0][kk], buffer, at4);
      }
      WgmmaCommitOp::create(at, loc);
      WgmmaWaitOp::create(at, loc, 0);
      SmallVector<Value> states(initStates);
      Value candidateBase = add(at, k0, mul(at, quad, 2));
      for (int64_t j = 0; j < tileRows / 8; ++j)
        for (int64_t column = 0; column < 2; ++column)
          states = fold(at, states, add(at, candidateBase, index(8 * j + column)), guarded,
                        [&](OpBuilder &then, int64_t slotRow) {
                          return extract(then, acc, 4 * j + 2 * slotRow + column);
                        });
      return states;
    };
    auto emitTile = [&](OpBuilder &at, ValueRange initStates, bool guarded) {
      return warpgroup ? emitWarpgroup(at, initStates, guarded)
                       : emitGroups(at, initStates, guarded);
    };
    SmallVector<Value> carriedOut;
    ValueRange states = carried.take_front(slots * stateCount);
    if (fastpath) {
      Value full = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::ule, tileEnd, upper);
      auto split = scf::IfOp::create(body, loc, TypeRange(states), full, /*withElse=*/true);
      OpBuilder fast = OpBuilder::atBlockBegin(split.thenBlock());
      scf::YieldOp::create(fast, loc, emitTile(fast, states, /*guarded=*/false));
      OpBuilder ragged = OpBuilder::atBlockBegin(split.elseBlock());
      scf::YieldOp::create(ragged, loc, emitTile(ragged, states, /*guarded=*/true));
      carriedOut.append(split.getResults().begin(), split.getResults().end());
    } else {
      carriedOut = emitTile(body, states, /*guarded=*/true);
    }
    if (doubled) {
      if (inRegisters)
        storeMine(body, prefetched, otherSlot);
      else
        copyTile(body, tileEnd, otherSlot);
      publish(body); // the next tile is in place, this one free to overwrite
    } else if (inRegisters) {
      BarrierOp::create(body, loc); // every warp is done with the tile before the next store
    }
    carriedOut.append(next);
    scf::YieldOp::create(body, loc, carriedOut);
    // The groups are independent mma chains: unrolled, ptxas interleaves them.
    if (unroll > 1)
      for (scf::ForOp groups : groupLoops)
        (void)loopUnrollByFactor(groups, unroll);

    // The tail, once per row slot; quads now hold what the warp held.
    OpBuilder end(loop->getBlock()->getTerminator());
    for (int64_t slot = 0; slot < slots; ++slot) {
      IRMapping map;
      for (unsigned s = 0; s < stateCount; ++s)
        map.map(loop.getResult(s), tiles.getResult(slot * stateCount + s));
      map.map(site.row, slotRows[slot]);
      map.map(lane, quad);
      for (Operation *op : site.tail)
        end.clone(*op, map)->walk([](Operation *nested) {
          if (auto r = dyn_cast<WarpReduceOp>(nested))
            r.setLanes(4);
          if (auto r = dyn_cast<WarpArgReduceOp>(nested))
            r.setLanes(4);
        });
    }
    for (Operation *op : llvm::reverse(site.tail))
      op->erase();
    loop.erase();

    AffineMap grid = kernel.getGrid();
    SmallVector<AffineExpr> extents(grid.getResults());
    extents[0] = extents[0].ceilDiv(rows);
    kernel.setGrid(AffineMap::get(0, grid.getNumSymbols(), extents, ctx));
  }
};
} // namespace
