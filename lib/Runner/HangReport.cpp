//===- HangReport.cpp - decoding the hang-debug lowering's record ---------===//
#include "Cake/Runner/HangReport.h"

#include <algorithm>
#include <map>

using namespace cake::abi;
using namespace cake::runner;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

/// The site's op, location and role (null when unknown or outside roles).
static void describeSite(const HangSite *site, Object &out) {
  out["op"] = site ? Value(site->op) : Value(nullptr);
  out["loc"] = site ? Value(site->loc) : Value(nullptr);
  out["role"] = site && !site->role.empty() ? Value(site->role) : Value(nullptr);
}

bool cake::runner::decodeHangReport(const uint32_t *words, const KernelDesc &kernel,
                                    Object &report, std::string &message) {
  if (words[0] != kHangReportMagic)
    return false;
  int64_t siteId = words[1];
  const HangSite *site = nullptr;
  for (const HangSite &s : kernel.hangSites)
    if (s.id == siteId)
      site = &s;
  int64_t thread = words[5];
  int64_t warp = thread / 32;
  report = Object{{"site", siteId},
                  {"block", Array{words[2], words[3], words[4]}},
                  {"thread", thread},
                  {"warp", warp},
                  {"parity", words[6] & 1},
                  {"timeout_ms", words[7]}};
  describeSite(site, report);

  message = "hang: block (" + std::to_string(words[2]) + ", " + std::to_string(words[3]) + ", " +
            std::to_string(words[4]) + ") thread " + std::to_string(thread) + " (warp " +
            std::to_string(warp);
  if (site && !site->role.empty())
    message += ", role '" + site->role + "'";
  message += ") waited more than " + std::to_string(words[7]) + " ms at ";
  message += site ? site->op + " (" + site->loc + ")"
                  : "wait site " + std::to_string(siteId) +
                        " (the manifest lists no such site: compile it with the same "
                        "--hang-timeout-ms)";
  message += " for parity " + std::to_string(words[6] & 1);
  return true;
}

bool cake::runner::decodeHangTable(const uint32_t *words, const KernelDesc &kernel,
                                   Array &barriers, std::string &summary) {
  struct Group {
    int64_t warps = 0;
    std::vector<int64_t> blocks;
  };
  std::map<int64_t, Group> bySite;
  for (size_t i = 0; i < kHangTableEntries; ++i) {
    if (!words[2 * i])
      continue;
    Group &g = bySite[static_cast<int64_t>(words[2 * i]) - 1];
    ++g.warps;
    int64_t block = words[2 * i + 1];
    if (g.blocks.size() < 16 && std::find(g.blocks.begin(), g.blocks.end(), block) == g.blocks.end())
      g.blocks.push_back(block);
  }
  if (bySite.empty())
    return false;
  barriers = Array();
  summary.clear();
  for (auto &[siteId, g] : bySite) {
    const HangSite *site = nullptr;
    for (const HangSite &s : kernel.hangSites)
      if (s.id == siteId)
        site = &s;
    std::sort(g.blocks.begin(), g.blocks.end());
    Object entry{{"site", siteId},
                 {"warps", g.warps},
                 {"blocks", Array(g.blocks)}};
    describeSite(site, entry);
    barriers.push_back(std::move(entry));
    summary += summary.empty() ? "" : "; ";
    summary += std::to_string(g.warps) + (g.warps == 1 ? " warp" : " warps") + " at ";
    summary += site ? site->op + " (" + site->loc + ")" : "barrier site " + std::to_string(siteId);
    if (site && !site->role.empty())
      summary += " in role '" + site->role + "'";
    summary += ", blocks";
    for (size_t i = 0; i < g.blocks.size(); ++i)
      summary += (i ? ", " : " ") + std::to_string(g.blocks[i]);
    if (g.blocks.size() == 16)
      summary += ", ...";
  }
  return true;
}
