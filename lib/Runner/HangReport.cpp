//===- HangReport.cpp - decoding the hang-debug lowering's record ---------===//
#include "Cake/Runner/HangReport.h"

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
