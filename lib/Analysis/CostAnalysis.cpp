//===- CostAnalysis.cpp - the analytical cost model of a kernel -----------===//
//
// One walk over the kernel (CostWalker.cpp, with CostValues.cpp and CostAccess.cpp) builds, per
// block: work per unit, bytes per level, and the critical path. Memory accesses are simulated
// for one warp (addresses of its active lanes) to count 32-byte sectors, 128-byte lines and
// shared-memory bank conflicts (with the swizzle). This file is the public side: `evaluate`
// binds the sizes and a profile and writes the report. docs/CostModel.md gives every formula.
//
//===----------------------------------------------------------------------===//
#include "CostWalker.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::costwalk;

//===----------------------------------------------------------------------===//
// CostAnalysis
//===----------------------------------------------------------------------===//

CostAnalysis::CostAnalysis(Operation *op) : kernel(op) {
  if (auto k = dyn_cast<KernelOp>(op))
    CostWalker(*this, k).run();
}

std::optional<int64_t> CostAnalysis::parsePtxasRegisters(StringRef log, StringRef entry) {
  // ptxas -v: "Compiling entry function 'NAME' for 'sm_90a'" ... "Used N registers".
  size_t at = log.find(("Compiling entry function '" + entry + "'").str());
  if (at == StringRef::npos) {
    at = log.find(("Function properties for " + entry).str());
    if (at == StringRef::npos)
      return std::nullopt;
  }
  StringRef rest = log.drop_front(at);
  size_t next = rest.find("Compiling entry function", 10);
  rest = rest.take_front(next);
  llvm::Regex used("Used ([0-9]+) registers");
  SmallVector<StringRef, 2> match;
  if (!used.match(rest, &match))
    return std::nullopt;
  int64_t regs;
  if (match[1].getAsInteger(10, regs))
    return std::nullopt;
  return regs;
}

static std::string fmt(double v) {
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%.4g", v);
  return buffer;
}

llvm::Expected<CostReport> CostAnalysis::evaluate(const HardwareProfile &profile,
                                                  const Options &options) {
  auto error = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  CostReport r;
  r.kernel = name;
  r.target = target;
  if (!isa_and_nonnull<KernelOp>(kernel))
    return error("the cost analysis runs on a cake.kernel");
  if (!profile.coversTarget(target))
    return error("profile '" + profile.name + "' (" + profile.path + ") does not cover target '" +
                 target + "' (it covers " + llvm::join(profile.targets, ", ") + ")");

  llvm::StringMap<double> params = profile.params;
  params["sm_count"] = profile.smCount;
  for (const auto &entry : blockWork)
    if (entry.first().starts_with("tensor_") || entry.first().starts_with("mma_sync_")) {
      StringRef unitName = entry.first();
      std::string key = unitName.starts_with("tensor_")
                            ? ("tensor_TFLOPS." + unitName.drop_front(7)).str()
                            : ("mma_sync_TFLOPS." + unitName.drop_front(9)).str();
      if (!params.count(key))
        return error("profile '" + profile.name + "' (" + profile.path + "): missing field 'params." +
                     key + "', needed by kernel '" + name + "'");
    }

  // Registers: ptxas's count, else the setmaxnreg budget (compiled for one block per SM: the
  // entry budget is the register file over the block), else an estimate.
  int64_t sm = profile.smCount;
  if (options.ptxasRegisters) {
    r.registers = *options.ptxasRegisters;
    r.registersSource = "ptxas";
  } else if (roleRegisters) {
    r.registers = std::min<int64_t>(profile.maxRegistersPerThread,
                                    profile.registersPerSm / threads / 8 * 8);
    r.registersSource = "setmaxnreg";
  } else {
    r.registers = estimatedRegisters;
    r.registersSource = "estimate";
  }
  r.sharedBytes = sharedBytes;
  r.threadsPerBlock = threads;
  int64_t warps = (threads + 31) / 32;
  int64_t perWarp = llvm::alignTo(r.registers * 32, profile.registerAllocUnit);
  struct Limit {
    const char *name;
    int64_t blocks;
  } limits[] = {
      {"threads", profile.maxThreadsPerSm / (warps * 32)},
      {"blocks", profile.maxBlocksPerSm},
      {"registers", profile.registersPerSm / std::max<int64_t>(1, perWarp * warps)},
      {"shared memory",
       sharedBytes ? profile.sharedBytesPerSm / (sharedBytes + profile.sharedReservedPerBlock)
                   : profile.maxBlocksPerSm},
      // A block waits in tcgen05.alloc until its columns are free: 512 per SM.
      {"tensor memory", tensorMemoryColumns ? 512 / tensorMemoryColumns : profile.maxBlocksPerSm}};
  r.blocksPerSm = INT64_MAX;
  for (const Limit &l : limits)
    if (l.blocks < r.blocksPerSm) {
      r.blocksPerSm = l.blocks;
      r.occupancyLimit = l.name;
    }
  if (sharedBytes > profile.sharedBytesPerBlock)
    return error(llvm::formatv("kernel '{0}' needs {1} bytes of shared memory per block; '{2}' "
                               "allows {3}",
                               name, sharedBytes, profile.name, profile.sharedBytesPerBlock)
                     .str());
  if (r.blocksPerSm < 1)
    return error(llvm::formatv("kernel '{0}' does not fit on an SM of '{1}' (limited by {2})", name,
                               profile.name, r.occupancyLimit)
                     .str());

  // Which sizes the prediction needs.
  llvm::StringSet<> used;
  blocks.collectSizes(used);
  blockChain.collectSizes(used);
  for (const auto &e : blockWork)
    e.second.collectSizes(used);
  for (const TensorTraffic &t : tensors) {
    t.requested.collectSizes(used);
    t.footprint.collectSizes(used);
  }
  for (const std::string &s : symbols)
    if (used.contains(s) && !options.sizes.count(s))
      r.missingSizes.push_back(s);

  const llvm::StringMap<double> &sizes = options.sizes;
  Expr smExpr(static_cast<double>(sm));
  Expr busiest = Expr::ceilDiv(blocks, smExpr);
  Expr bytesL2(0.0), bytesDram(0.0), bytesUseful(0.0);
  for (const TensorTraffic &t : tensors) {
    Expr requested = blocks * t.requested;
    Expr once = Expr::min(requested, t.footprint);
    bytesL2 += requested;
    bytesDram += once + param("l2_reread_miss") * Expr::max(Expr(0.0), requested - t.footprint);
    bytesUseful += blocks * t.useful;
  }

  if (!r.missingSizes.empty()) {
    r.formulas.insert({"blocks", blocks.str()});
    r.formulas.insert({"blocks_on_busiest_sm", busiest.str()});
    for (const auto &e : blockFlops)
      r.formulas.insert({e.first(), (blocks * e.second).bind(sizes).str()});
    r.formulas.insert({"bytes_l2", bytesL2.bind(sizes).str()});
    r.formulas.insert({"bytes_useful", bytesUseful.bind(sizes).str()});
    return r;
  }

  // Terms of the max (seconds), each an expression over the profile's parameters.
  llvm::MapVector<StringRef, Expr> terms;
  Expr issue(0.0);
  unsigned issuers = 0;
  for (const auto &e : blockWork) {
    Expr term = busiest * e.second / unitRate(e.first());
    terms.insert({e.first(), term});
    if (sharesDispatch(e.first())) {
      issue += term;
      ++issuers;
    }
  }
  if (issuers > 1)
    terms.insert({"issue", issue});
  Expr occ(static_cast<double>(r.blocksPerSm));
  terms.insert({"latency", Expr::ceilDiv(busiest, occ) * blockChain});
  terms.insert({"dram", bytesDram / (param("dram_bandwidth_GBps") * 1e9)});
  terms.insert({"l2", bytesL2 / (param("l2_bandwidth_GBps") * 1e9)});
  Expr time(0.0);
  for (auto &[key, term] : terms)
    time = Expr::max(time, term);
  Expr launch = param("launch_overhead_us") * 1e-6;
  time = time + launch;

  auto value = [&](const Expr &e) { return e.evaluate(sizes, params).value_or(0.0); };
  r.complete = true;
  r.predictedMs = value(time) * 1e3;
  Expr model = time.bind(sizes);
  r.model = model.toJSON();
  double best = -1;
  for (auto &[key, term] : terms) {
    double ms = value(term) * 1e3;
    r.termsMs.insert({key, ms});
    if (ms > best) {
      best = ms;
      r.boundUnit = key.str();
    }
  }
  r.termsMs.insert({"launch", value(launch) * 1e3});
  r.blocks = static_cast<int64_t>(value(blocks));
  r.busiestSmBlocks = static_cast<int64_t>(value(busiest));
  r.waves = r.blocks / static_cast<double>(sm * r.blocksPerSm);
  r.tailEfficiency = r.waves > 0 ? r.waves / std::ceil(r.waves - 1e-9) : 1;
  double chain = value(blockChain);
  r.blockLatencyUs = chain * 1e6;
  r.syncShare = chain > 0 ? value(blockSyncChain) / chain : 0;
  for (const auto &e : blockFlops)
    r.flops.insert({e.first(), value(blocks * e.second)});
  for (const auto &e : blockWork)
    r.unitWork.insert({e.first(), value(blocks * e.second)});
  r.bytes.insert({"dram", value(bytesDram)});
  r.bytes.insert({"l2", value(bytesL2)});
  r.bytes.insert({"global_useful", value(bytesUseful)});
  r.bytes.insert({"shared", value(blocks * sharedBytesMoved)});

  StringRef unit = r.boundUnit;
  if (unit == "latency")
    r.bound = r.syncShare > 0.5 ? "sync" : "latency";
  else if (unit == "dram" || unit == "l2" || unit == "lsu" ||
           (unit == "issue" && r.termsMs["lsu"] > r.termsMs["fma"]))
    r.bound = "memory";
  else
    r.bound = "compute";

  // Evidence: the winning term's inputs, and the runner-up.
  double second = 0;
  std::string secondName;
  for (auto &[key, ms] : r.termsMs)
    if (key != unit && key != "launch" && ms > second) {
      second = ms;
      secondName = key.str();
    }
  std::string why;
  bool tensorUnit = unit.starts_with("tensor_") || unit.starts_with("mma_sync_");
  if (tensorUnit || unit == "fma" || unit == "fp64" || unit == "sfu" || unit == "lsu") {
    why = llvm::formatv("{0} {1} {2} over {3} SMs, {4} blocks on the busiest SM", fmt(r.unitWork[unit]),
                        unit == "lsu" ? "wavefronts" : tensorUnit ? "FLOP" : "ops",
                        unit, sm, r.busiestSmBlocks)
              .str();
  } else if (unit == "issue") {
    why = llvm::formatv("fma {0} ms + lsu {1} ms: FMAs and loads/stores share the dispatch ports",
                        fmt(r.termsMs["fma"]), fmt(r.termsMs["lsu"]))
              .str();
  } else if (unit == "latency") {
    why = llvm::formatv("critical path of a block {0} us ({1}% in barriers/waits) x {2} rounds of "
                        "{3} block(s)/SM",
                        fmt(r.blockLatencyUs), static_cast<int>(r.syncShare * 100 + 0.5),
                        (r.busiestSmBlocks + r.blocksPerSm - 1) / r.blocksPerSm, r.blocksPerSm)
              .str();
  } else if (unit == "dram") {
    why = llvm::formatv("{0} B from DRAM at {1} GB/s", fmt(r.bytes["dram"]),
                        fmt(params["dram_bandwidth_GBps"]))
              .str();
  } else {
    why = llvm::formatv("{0} B through L2 at {1} GB/s", fmt(r.bytes["l2"]),
                        fmt(params["l2_bandwidth_GBps"]))
              .str();
  }
  r.evidence = llvm::formatv("{0}: {1} ms ({2}); next: {3} {4} ms", unit, fmt(best), why,
                             secondName, fmt(second))
                   .str();
  return r;
}
