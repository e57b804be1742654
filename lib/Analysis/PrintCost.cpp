//===- PrintCost.cpp - the cake-print-cost pass ---------------------------===//
//
// Binds every kernel's CostAnalysis to the sizes and a hardware profile; emits remarks and the
// JSON cost report (docs/CostModel.md, "The report").
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/CostAnalysis.h"
#include "Cake/Analysis/ProblemSizes.h"
#include "Cake/Analysis/Passes.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEPRINTCOSTPASS
#include "Cake/Analysis/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

static std::string num(double v) {
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%.4g", v);
  return buffer;
}

namespace {
struct PrintCostPass : public cake::impl::CakePrintCostPassBase<PrintCostPass> {
  using Base::Base;
  void runOnOperation() override;

  llvm::Expected<HardwareProfile> profileFor(StringRef target);
  std::map<std::string, HardwareProfile> loaded;
};
} // namespace

/// The sizes as the cost expressions take them.
static llvm::Expected<llvm::StringMap<double>> parseSizes(StringRef text) {
  llvm::Expected<llvm::StringMap<int64_t>> parsed = parseProblemSizes(text);
  if (!parsed)
    return parsed.takeError();
  llvm::StringMap<double> sizes;
  for (const auto &entry : *parsed)
    sizes[entry.getKey()] = static_cast<double>(entry.getValue());
  return sizes;
}

llvm::Expected<HardwareProfile> PrintCostPass::profileFor(StringRef target) {
  std::string dir = profileDir.empty() ? HardwareProfile::defaultDirectory() : profileDir;
  std::string key = profile.empty() ? "target:" + target.str() : "profile:" + profile;
  auto it = loaded.find(key);
  if (it != loaded.end())
    return it->second;
  llvm::Expected<HardwareProfile> result = [&]() -> llvm::Expected<HardwareProfile> {
    if (profile.empty())
      return HardwareProfile::findForTarget(dir, target);
    if (llvm::sys::fs::exists(profile))
      return HardwareProfile::load(profile);
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, profile + ".json");
    if (!StringRef(profile).ends_with(".json") && llvm::sys::fs::exists(path))
      return HardwareProfile::load(path);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown profile '" + profile + "': no such file, and no " +
                                       profile + ".json in '" + dir + "'");
  }();
  if (result)
    loaded[key] = *result;
  return result;
}

static llvm::json::Object toJSON(const CostReport &r, const CostAnalysis &analysis,
                                 const HardwareProfile &profile,
                                 const llvm::StringMap<double> &sizes) {
  llvm::json::Object sizeObject;
  for (const auto &s : sizes)
    sizeObject[s.first().str()] = static_cast<int64_t>(s.second);
  llvm::json::Object o{
      {"kernel", r.kernel},
      {"target", r.target},
      {"profile", llvm::json::Object{{"name", profile.name},
                                     {"version", profile.version},
                                     {"path", profile.path}}},
      {"sizes", std::move(sizeObject)},
  };
  llvm::json::Array assumptions;
  for (const std::string &a : analysis.getAssumptions())
    assumptions.push_back(a);
  o["assumptions"] = std::move(assumptions);
  if (!r.complete) {
    o["status"] = "needs_sizes";
    o["predicted_time_ms"] = nullptr;
    llvm::json::Array needs;
    for (const std::string &s : r.missingSizes)
      needs.push_back(s);
    o["needs_sizes"] = std::move(needs);
    llvm::json::Object formulas;
    for (auto &[key, value] : r.formulas)
      formulas[key.str()] = value;
    o["formulas"] = std::move(formulas);
    return o;
  }
  o["status"] = "ok";
  o["predicted_time_ms"] = r.predictedMs;
  o["bound"] = r.bound;
  o["bound_term"] = r.boundUnit;
  o["evidence"] = r.evidence;
  llvm::json::Object terms, flops, work, bytes;
  for (auto &[k, v] : r.termsMs)
    terms[k.str()] = v;
  for (auto &[k, v] : r.flops)
    flops[k.str()] = v;
  for (auto &[k, v] : r.unitWork)
    work[k.str()] = v;
  for (auto &[k, v] : r.bytes)
    bytes[k.str()] = v;
  o["terms_ms"] = std::move(terms);
  o["flops"] = std::move(flops);
  o["unit_work"] = std::move(work);
  o["bytes"] = std::move(bytes);
  o["occupancy"] = llvm::json::Object{{"blocks_per_sm", r.blocksPerSm},
                                      {"threads_per_block", r.threadsPerBlock},
                                      {"limited_by", r.occupancyLimit},
                                      {"registers_per_thread", r.registers},
                                      {"registers_source", r.registersSource},
                                      {"shared_bytes_per_block", r.sharedBytes}};
  o["grid"] = llvm::json::Object{{"blocks", r.blocks},
                                 {"waves", r.waves},
                                 {"blocks_on_busiest_sm", r.busiestSmBlocks},
                                 {"tail_efficiency", r.tailEfficiency}};
  llvm::json::Array loops;
  for (const LoopInfo &loop : analysis.getLoops()) {
    llvm::json::Object l{{"trips", loop.trips.str()}};
    if (std::optional<double> n = loop.trips.evaluate(sizes, profile.params))
      l["trips_value"] = *n;
    if (auto file = dyn_cast<FileLineColLoc>(loop.loc))
      l["line"] = static_cast<int64_t>(file.getLine());
    if (loop.stages) {
      l["stages"] = loop.stages;
      l["ring"] = loop.ring;
      llvm::StringMap<double> params = profile.params;
      params["sm_count"] = profile.smCount;
      double iteration = loop.iterationTime.evaluate(sizes, params).value_or(0);
      double perStage = params[loop.latencyParam] * 1e-9 / loop.stages;
      l["iteration_us"] = iteration * 1e6;
      // The per-stage breakdown: one iteration (one stage of the ring) of one block.
      l["iteration_time_us"] = std::max(iteration, perStage) * 1e6;
      l["copy_latency_per_stage_us"] = perStage * 1e6;
      l["copy_latency_param"] = loop.latencyParam;
      l["latency_hidden"] = iteration >= perStage;
      l["mma_overlaps_epilogue"] = loop.asyncOverlap;
      if (loop.producerLoc)
        if (auto file = dyn_cast<FileLineColLoc>(*loop.producerLoc))
          l["producer_line"] = static_cast<int64_t>(file.getLine());
      auto value = [&](const cost::Expr &e) { return e.evaluate(sizes, params).value_or(0.0); };
      llvm::json::Object flops;
      for (const auto &f : loop.perIteration.flops)
        flops[f.first()] = value(f.second);
      l["flops"] = std::move(flops);
      double l2 = value(loop.perIteration.l2);
      double l2Total = r.bytes.lookup("l2");
      l["bytes"] = llvm::json::Object{
          {"l2", l2},
          {"dram", l2Total > 0 ? l2 * r.bytes.lookup("dram") / l2Total : 0.0},
          {"global_useful", value(loop.perIteration.useful)},
          {"shared", value(loop.perIteration.shared)}};
    }
    loops.push_back(std::move(l));
  }
  o["loops"] = std::move(loops);
  o["pipeline"] = llvm::json::Object{{"block_critical_path_us", r.blockLatencyUs},
                                     {"sync_share", r.syncShare}};
  llvm::json::Array notes;
  for (const AccessNote &n : analysis.getAccessNotes()) {
    llvm::json::Object note{{"message", n.message}};
    if (auto file = dyn_cast<FileLineColLoc>(n.loc))
      note["line"] = static_cast<int64_t>(file.getLine());
    notes.push_back(std::move(note));
  }
  o["access_notes"] = std::move(notes);
  llvm::json::Object params;
  for (const auto &p : profile.params)
    params[p.first().str()] = p.second;
  params["sm_count"] = profile.smCount;
  o["params"] = std::move(params);
  o["model"] = r.model;
  return o;
}

void PrintCostPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool failed = false;
  llvm::Expected<llvm::StringMap<double>> parsedSizes = parseSizes(sizes);
  if (!parsedSizes) {
    mlir::emitError(module.getLoc()) << "cake-print-cost: " << llvm::toString(parsedSizes.takeError());
    return signalPassFailure();
  }
  std::string ptxasLog;
  if (!ptxasReport.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(ptxasReport);
    if (!buffer) {
      mlir::emitError(module.getLoc()) << "cake-print-cost: cannot read ptxas report '" << ptxasReport
                         << "': " << buffer.getError().message();
      return signalPassFailure();
    }
    ptxasLog = (*buffer)->getBuffer().str();
  }

  llvm::json::Array kernels;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    llvm::Expected<HardwareProfile> hw = profileFor(kernel.getTarget());
    if (!hw) {
      mlir::emitError(kernel.getLoc()) << "cake-print-cost: " << llvm::toString(hw.takeError());
      failed = true;
      continue;
    }
    CostAnalysis &analysis = getChildAnalysis<CostAnalysis>(kernel);
    CostAnalysis::Options options;
    options.sizes = *parsedSizes;
    if (!ptxasLog.empty()) {
      options.ptxasRegisters = CostAnalysis::parsePtxasRegisters(ptxasLog, kernel.getSymName());
      if (!options.ptxasRegisters)
        mlir::emitWarning(kernel.getLoc()) << "cake-print-cost: the ptxas report has no registers for '"
                             << kernel.getSymName() << "': registers are estimated";
    }
    llvm::Expected<CostReport> report = analysis.evaluate(*hw, options);
    if (!report) {
      mlir::emitError(kernel.getLoc()) << "cake-print-cost: " << llvm::toString(report.takeError());
      failed = true;
      continue;
    }
    CostReport &r = *report;
    if (!r.complete) {
      mlir::emitWarning(kernel.getLoc()) << "cost: kernel '" << r.kernel << "' needs sizes "
                           << llvm::join(r.missingSizes, ", ")
                           << " for a predicted time (pass sizes=NAME=VALUE,...)";
      std::string formulas;
      for (auto &[key, value] : r.formulas)
        formulas += (formulas.empty() ? "" : "; ") + key.str() + " = " + value;
      mlir::emitRemark(kernel.getLoc()) << "cost formulas: " << formulas;
    } else {
      mlir::emitRemark(kernel.getLoc()) << "cost: predicted " << num(r.predictedMs) << " ms on " << hw->name
                          << " v" << hw->version << ": " << r.bound << "-bound (" << r.evidence
                          << ")";
      mlir::emitRemark(kernel.getLoc()) << "cost occupancy: " << r.blocksPerSm
                          << " block(s)/SM limited by " << r.occupancyLimit << " ("
                          << kernel.getNumThreads() << " threads, " << r.registers
                          << " registers from " << r.registersSource << ", " << r.sharedBytes
                          << " B shared); " << r.blocks << " blocks = " << num(r.waves)
                          << " waves, " << r.busiestSmBlocks << " on the busiest SM";
      std::string work;
      for (auto &[k, v] : r.flops)
        work += (work.empty() ? "" : ", ") + k.str() + " " + num(v);
      mlir::emitRemark(kernel.getLoc()) << "cost work: FLOP " << (work.empty() ? "none" : work)
                          << "; bytes dram " << num(r.bytes["dram"]) << ", l2 "
                          << num(r.bytes["l2"]) << ", shared " << num(r.bytes["shared"]);
      llvm::StringMap<double> params = hw->params;
      params["sm_count"] = hw->smCount;
      for (const LoopInfo &loop : analysis.getLoops()) {
        if (!loop.stages)
          continue;
        auto value = [&](const cost::Expr &e) {
          return e.evaluate(*parsedSizes, params).value_or(0.0);
        };
        double iteration = value(loop.iterationTime);
        double perStage = params[loop.latencyParam] * 1e-9 / loop.stages;
        std::string flops;
        for (const auto &f : loop.perIteration.flops)
          flops += (flops.empty() ? "" : ", ") + f.first().str() + " " + num(value(f.second));
        mlir::emitRemark(loop.loc)
            << "cost pipeline: " << loop.stages << " stages, " << loop.trips.str()
            << " iterations of " << num(iteration * 1e6) << " us; copy latency / stages "
            << num(perStage * 1e6) << " us: latency "
            << (iteration >= perStage ? "hidden" : "exposed") << " (" << loop.ring
            << " ring); per iteration of a block: FLOP " << (flops.empty() ? "none" : flops)
            << "; bytes l2 " << num(value(loop.perIteration.l2)) << ", shared "
            << num(value(loop.perIteration.shared));
      }
    }
    for (const AccessNote &note : analysis.getAccessNotes())
      mlir::emitRemark(note.loc) << "cost: " << note.message;
    for (const std::string &assumption : analysis.getAssumptions())
      mlir::emitRemark(kernel.getLoc()) << "cost assumption: " << assumption;
    kernels.push_back(toJSON(r, analysis, *hw, *parsedSizes));
  }

  if (!json.empty()) {
    llvm::json::Object doc{{"schema", "cake-cost-report"}, {"version", 1},
                           {"kernels", std::move(kernels)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
    if (json == "-") {
      llvm::outs() << text;
      llvm::outs().flush();
    } else {
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(json, &error);
      if (!file) {
        mlir::emitError(module.getLoc()) << "cake-print-cost: cannot write '" << json << "': " << error;
        return signalPassFailure();
      }
      file->os() << text;
      file->keep();
    }
  }
  if (failed)
    signalPassFailure();
}
