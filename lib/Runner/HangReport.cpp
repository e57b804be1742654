//===- HangReport.cpp - decoding the hang-debug lowering's record ---------===//
#include "Cake/Runner/HangReport.h"

#include <algorithm>
#include <map>

using namespace cake::runner;

bool cake::runner::decodeHangReport(const uint32_t *words, const KernelDesc &kernel,
                                    JsonValue &report, std::string &message) {
  if (words[0] != kHangReportMagic)
    return false;
  int64_t siteId = words[1];
  const HangSite *site = nullptr;
  for (const HangSite &s : kernel.hangSites)
    if (s.id == siteId)
      site = &s;
  int64_t thread = words[5];
  int64_t warp = thread / 32;
  report = JsonValue::object();
  report.set("site", JsonValue::integer(siteId));
  report.set("op", site ? JsonValue::string(site->op) : JsonValue::null());
  report.set("loc", site ? JsonValue::string(site->loc) : JsonValue::null());
  report.set("role", site && !site->role.empty() ? JsonValue::string(site->role)
                                                  : JsonValue::null());
  JsonValue block = JsonValue::array();
  for (int i = 2; i <= 4; ++i)
    block.push(JsonValue::integer(words[i]));
  report.set("block", std::move(block));
  report.set("thread", JsonValue::integer(thread));
  report.set("warp", JsonValue::integer(warp));
  report.set("parity", JsonValue::integer(words[6] & 1));
  report.set("timeout_ms", JsonValue::integer(words[7]));

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
                                   JsonValue &barriers, std::string &summary) {
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
  barriers = JsonValue::array();
  summary.clear();
  for (auto &[siteId, g] : bySite) {
    const HangSite *site = nullptr;
    for (const HangSite &s : kernel.hangSites)
      if (s.id == siteId)
        site = &s;
    std::sort(g.blocks.begin(), g.blocks.end());
    JsonValue entry = JsonValue::object();
    entry.set("site", JsonValue::integer(siteId));
    entry.set("op", site ? JsonValue::string(site->op) : JsonValue::null());
    entry.set("loc", site ? JsonValue::string(site->loc) : JsonValue::null());
    entry.set("role", site && !site->role.empty() ? JsonValue::string(site->role)
                                                   : JsonValue::null());
    entry.set("warps", JsonValue::integer(g.warps));
    JsonValue blocks = JsonValue::array();
    for (int64_t b : g.blocks)
      blocks.push(JsonValue::integer(b));
    entry.set("blocks", std::move(blocks));
    barriers.push(std::move(entry));
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
