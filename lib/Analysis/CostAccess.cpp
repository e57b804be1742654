//===- CostAccess.cpp - memory accesses of one warp -------------------------===//
//
// Simulates one warp's global and shared accesses: 32-byte sectors and 128-byte lines per
// request, shared-memory wavefronts and bank conflicts (with the swizzle).
//
//===----------------------------------------------------------------------===//
#include "CostWalker.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::costwalk;

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

TensorTraffic *CostWalker::tensorFor(Value memory) {
  auto it = tensorIndex.find(memory);
  return it == tensorIndex.end() ? nullptr : &a.tensors[it->second];
}

void CostWalker::globalAccess(Operation *op, Value memory, ValueRange indices, int64_t width,
                              bool isStore, const Ctx &ctx, Local &local, bool masked,
                              bool async) {
  auto type = cast<GlobalTensorType>(memory.getType());
  int64_t eb = type.getElementBytes(), bytes = width * eb;
  SmallVector<int64_t, 32> tids = ctx.firstWarpThreads();
  // Element strides with every size at the simulated value.
  SmallVector<int64_t> strides;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    int64_t stride = 1;
    for (Attribute f : type.getStrideFactors(d))
      stride *= isa<IntegerAttr>(f) ? cast<IntegerAttr>(f).getInt()
                                    : static_cast<int64_t>(simSizes.lookup(
                                          cast<StringAttr>(f).getValue()));
    strides.push_back(stride);
  }
  // Extents at the simulated sizes: a masked access's lanes outside them move no bytes.
  SmallVector<int64_t> extents;
  for (Attribute extent : type.getShape())
    extents.push_back(isa<IntegerAttr>(extent)
                          ? cast<IntegerAttr>(extent).getInt()
                          : static_cast<int64_t>(simSizes.lookup(cast<StringAttr>(extent).getValue())));
  llvm::DenseSet<int64_t> sectors, lines;
  bool known = true;
  int64_t inBounds = 0;
  for (int64_t tid : tids) {
    Sim sim{tid};
    int64_t offset = 0;
    bool outside = false;
    for (auto [d, index, stride] : llvm::enumerate(indices, strides)) {
      std::optional<int64_t> v = concrete(index, sim);
      if (!v) {
        known = false;
        break;
      }
      if (masked && d < extents.size() && (*v < 0 || *v >= extents[d]))
        outside = true;
      offset += *v * stride;
    }
    if (!known)
      break;
    if (outside)
      continue;
    ++inBounds;
    int64_t first = offset * eb, last = first + bytes - 1;
    for (int64_t s = first / 32; s <= last / 32; ++s)
      sectors.insert(s);
    for (int64_t l = first / 128; l <= last / 128; ++l)
      lines.insert(l);
  }
  if (!known)
    inBounds = tids.size();
  int64_t useful = bytes * inBounds;
  int64_t nSectors = known ? sectors.size() : (useful + 31) / 32;
  int64_t nLines = known ? lines.size() : (useful + 127) / 128;
  if (!known)
    assume("the address of the access at " + locString(op->getLoc()) +
           " is not analyzable: assumed coalesced");
  int64_t warps = ctx.warps();
  if (known && nSectors * 32 > 2 * std::max<int64_t>(useful, 32))
    a.accessNotes.push_back(
        {op->getLoc(), llvm::formatv("uncoalesced {0}: a warp access touches {1} sectors "
                                     "({2} B) for {3} B it uses",
                                     isStore ? "store" : "load", nSectors, nSectors * 32, useful)
                           .str()});
  addWork(local, ctx, "lsu", Expr(static_cast<double>(nLines * warps)));
  double usefulBytes = static_cast<double>(ctx.threads() * bytes);
  if (inBounds < static_cast<int64_t>(tids.size()))
    usefulBytes = tids.empty() ? 0 : usefulBytes * inBounds / tids.size();
  addTraffic(ctx, tensorFor(memory), Expr(static_cast<double>(nSectors * 32 * warps)),
             Expr(usefulBytes), isStore);
  // An asynchronous copy's latency is charged at its wait (cp_async.wait), not here.
  if (!isStore && !async)
    local.syncGlobalLoad = true;
}

/// CUTLASS-style swizzle: the 16-byte chunk index inside a `swizzle`-byte row XOR the row.
static int64_t swizzleOffset(int64_t offset, int64_t swizzle) {
  if (!swizzle)
    return offset;
  int64_t mask = swizzle / 16 - 1;
  return offset ^ (((offset >> 7) & mask) << 4);
}

void CostWalker::sharedAccess(Operation *op, SmemType type, ValueRange indices, int64_t width,
                              const Ctx &ctx, Local &local, int64_t laneLimit) {
  int64_t eb = type.getElementBytes(), bytes = width * eb;
  // The buffer type's own strides: padding and all.
  SmallVector<int64_t> strides = type.getElementStrides();
  SmallVector<int64_t, 32> tids = ctx.firstWarpThreads();
  // ldmatrix / stmatrix .xN: only the first 8 N lanes pass row addresses.
  if (static_cast<int64_t>(tids.size()) > laneLimit)
    tids.resize(laneLimit);
  SmallVector<int64_t, 32> addresses;
  bool known = true;
  for (int64_t tid : tids) {
    Sim sim{tid};
    int64_t offset = 0;
    for (auto [d, index] : llvm::enumerate(indices)) {
      std::optional<int64_t> v = concrete(index, sim);
      if (!v) {
        known = false;
        break;
      }
      offset += strides[d] * *v;
    }
    if (!known)
      break;
    addresses.push_back(swizzleOffset(offset * eb, type.getSwizzle()));
  }
  int64_t useful = bytes * static_cast<int64_t>(tids.size());
  int64_t ideal = std::max<int64_t>(1, (useful + 127) / 128);
  int64_t wavefronts = ideal;
  if (known && !addresses.empty()) {
    // 4-byte accesses: one phase of 32 lanes; 8 bytes: two of 16; 16 bytes: four of 8.
    int64_t perPhase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
    wavefronts = 0;
    for (size_t start = 0; start < addresses.size(); start += perPhase) {
      llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> banks;
      for (size_t i = start; i < std::min<size_t>(start + perPhase, addresses.size()); ++i)
        for (int64_t w = addresses[i] / 4; w < (addresses[i] + bytes + 3) / 4; ++w)
          banks[w % 32].insert(w);
      int64_t ways = 1;
      for (auto &[bank, words] : banks)
        ways = std::max<int64_t>(ways, words.size());
      wavefronts += ways;
    }
    if (wavefronts > 2 * ideal)
      a.accessNotes.push_back(
          {op->getLoc(),
           llvm::formatv("shared-memory bank conflicts: {0} wavefronts per warp access, {1} "
                         "without conflicts",
                         wavefronts, ideal)
               .str()});
  } else if (!known) {
    assume("the address of the access at " + locString(op->getLoc()) +
           " is not analyzable: assumed free of bank conflicts");
  }
  addWork(local, ctx, "lsu", Expr(static_cast<double>(wavefronts * ctx.warps())));
  addShared(ctx, Expr(static_cast<double>(laneLimit < 32 ? ctx.warps() * laneLimit * bytes
                                                         : ctx.threads() * bytes)));
}
