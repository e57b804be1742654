//===- Options.cpp - cake-run command line and exit statuses --------------===//

#include "Cake/Runner/Options.h"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace cake::abi;
using namespace cake::runner;

const char *cake::runner::runStatusName(RunStatus status) {
  switch (status) {
  case RunStatus::Ok:
    return "ok";
  case RunStatus::WrongResult:
    return "wrong_result";
  case RunStatus::BadArguments:
    return "bad_arguments";
  case RunStatus::LaunchFailure:
    return "launch_failure";
  case RunStatus::Timeout:
    return "timeout";
  case RunStatus::NoDevice:
    return "no_device";
  }
  return "?";
}

const char *cake::runner::runUsage() {
  return "usage: cake-run --cubin K.cubin --manifest K.json [--kernel ENTRY]\n"
         "                --sizes N=1000,D=128 [--scalar alpha=2.5] [--seed 1]\n"
         "                [--input x=x.bin,...] [--output-dir DIR]\n"
         "                [--outputs y,...] [--inouts z,...]\n"
         "                [--ref REF.cubin [--ref-entry ENTRY_ref]] [--rtol 1e-5]\n"
         "                [--warmup 10] [--iters 50] [--timeout SECONDS]\n"
         "                [--no-time] [--device 0]\n"
         "       cake-run --check-sizes --manifest K.json [--kernel ENTRY] --sizes N=1000\n"
         "       cake-run --help | --version\n"
         "\n"
         "Runs one kernel of a CAKE manifest on seeded inputs, checks it (against\n"
         "the reference kernel with --ref), times it, and prints one JSON record.\n"
         "Exit codes: 0 ok, 1 wrong_result, 2 bad_arguments, 3 launch_failure,\n"
         "4 timeout, 5 no_device. --timeout 0 disables the timeout (default 120).\n"
         "See docs/Runner.md.\n";
}

namespace {

bool parseInt(std::string_view text, int64_t &out) {
  auto res = std::from_chars(text.data(), text.data() + text.size(), out);
  return res.ec == std::errc() && res.ptr == text.data() + text.size() &&
         !text.empty();
}

bool parseDouble(std::string_view text, double &out) {
  std::string s(text);
  if (s.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno != ERANGE;
}

/// Calls `visit(item)` for each item of the comma-separated list `text`.
template <typename Fn> bool forEachItem(std::string_view text, Fn visit) {
  while (true) {
    size_t comma = text.find(',');
    if (!visit(text.substr(0, comma)))
      return false;
    if (comma == std::string_view::npos)
      return true;
    text = text.substr(comma + 1);
  }
}

/// Splits "a=1,b=2" and calls `add(name, value)` for each item.
template <typename Fn>
bool forEachAssignment(std::string_view text, const char *what, Fn add,
                       std::string &error) {
  return forEachItem(text, [&](std::string_view item) {
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      error = std::string("invalid ") + what + " '" + std::string(item) +
              "' (expected NAME=VALUE)";
      return false;
    }
    return add(std::string(item.substr(0, eq)), item.substr(eq + 1));
  });
}

} // namespace

bool cake::runner::parseSizeList(std::string_view text, SymbolMap &out,
                                 std::string &error) {
  return forEachAssignment(
      text, "size",
      [&](const std::string &name, std::string_view value) {
        int64_t v;
        if (!parseInt(value, v)) {
          error = "invalid value '" + std::string(value) + "' for size '" +
                  name + "' (expected an integer)";
          return false;
        }
        if (!out.emplace(name, v).second) {
          error = "size '" + name + "' given twice";
          return false;
        }
        return true;
      },
      error);
}

bool cake::runner::parseRunOptions(int argc, const char *const *argv,
                                   RunOptions &out, std::string &error) {
  out = RunOptions();
  bool sawIters = false;
  for (int i = 0; i < argc; ++i) {
    // One dash or two, as LLVM's tools take them: -cubin K.cubin is --cubin K.cubin.
    std::string dashed;
    std::string_view arg = argv[i];
    if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') {
      dashed = "-" + std::string(arg);
      arg = dashed;
    }
    if (arg == "--help" || arg == "-h") {
      out.help = true;
      continue;
    }
    if (arg == "--version") {
      out.version = true;
      continue;
    }
    if (arg == "--no-time") {
      out.noTime = true;
      continue;
    }
    if (arg == "--check-sizes") {
      out.checkSizes = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") {
      error = "unexpected argument '" + std::string(arg) + "'";
      return false;
    }
    std::string name(arg);
    std::string_view value;
    size_t eq = arg.find('=');
    if (eq != std::string_view::npos) {
      name = std::string(arg.substr(0, eq));
      value = arg.substr(eq + 1);
    }
    static const char *const kValued[] = {
        "--cubin",  "--manifest", "--kernel", "--ref",     "--ref-entry",
        "--sizes",  "--scalar",   "--seed",   "--rtol",    "--timeout",
        "--warmup", "--iters",    "--device", "--input",   "--output-dir",
        "--outputs", "--inouts"};
    if (std::find(std::begin(kValued), std::end(kValued), name) ==
        std::end(kValued)) {
      error = "unknown option '" + name + "'";
      return false;
    }
    if (eq != std::string_view::npos) {
      // Value already split off.
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      error = "option '" + name + "' needs a value";
      return false;
    }

    auto badValue = [&](const char *expected) {
      error = "invalid value '" + std::string(value) + "' for " + name +
              " (expected " + expected + ")";
      return false;
    };
    int64_t intValue;
    if (name == "--cubin") {
      out.cubin = std::string(value);
    } else if (name == "--manifest") {
      out.manifest = std::string(value);
    } else if (name == "--kernel") {
      out.kernel = std::string(value);
    } else if (name == "--ref") {
      out.ref = std::string(value);
    } else if (name == "--ref-entry") {
      out.refEntry = std::string(value);
    } else if (name == "--sizes") {
      if (!parseSizeList(value, out.sizes, error))
        return false;
    } else if (name == "--scalar") {
      bool ok = forEachAssignment(
          value, "scalar",
          [&](const std::string &scalar, std::string_view text) {
            if (!out.scalars.emplace(scalar, std::string(text)).second) {
              error = "scalar '" + scalar + "' given twice";
              return false;
            }
            return true;
          },
          error);
      if (!ok)
        return false;
    } else if (name == "--input") {
      bool ok = forEachAssignment(
          value, "input",
          [&](const std::string &tensor, std::string_view path) {
            if (!out.inputFiles.emplace(tensor, std::string(path)).second) {
              error = "input '" + tensor + "' given twice";
              return false;
            }
            return true;
          },
          error);
      if (!ok)
        return false;
    } else if (name == "--output-dir") {
      out.outputDir = std::string(value);
    } else if (name == "--outputs" || name == "--inouts") {
      std::vector<std::string> &list = name == "--outputs" ? out.outputs : out.inouts;
      bool ok = forEachItem(value, [&](std::string_view item) {
        if (item.empty()) {
          error = name + " expects a comma-separated list of tensor names";
          return false;
        }
        list.emplace_back(item);
        return true;
      });
      if (!ok)
        return false;
    } else if (name == "--seed") {
      uint64_t seed;
      auto res = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (value.empty() || res.ec != std::errc() ||
          res.ptr != value.data() + value.size())
        return badValue("a non-negative integer");
      out.seed = seed;
    } else if (name == "--rtol") {
      if (!parseDouble(value, out.rtol) || !(out.rtol >= 0))
        return badValue("a non-negative number");
    } else if (name == "--timeout") {
      if (!parseDouble(value, out.timeoutSeconds) ||
          !(out.timeoutSeconds >= 0) || out.timeoutSeconds > 1e6)
        return badValue("a number of seconds, 0 for none");
    } else if (name == "--warmup" || name == "--iters" || name == "--device") {
      if (!parseInt(value, intValue) || intValue < 0 || intValue > 1000000)
        return badValue("a non-negative integer");
      if (name == "--warmup") {
        out.warmup = intValue;
      } else if (name == "--iters") {
        out.iters = intValue;
        sawIters = true;
      } else {
        out.device = intValue;
      }
    } else {
      error = "unknown option '" + name + "'";
      return false;
    }
  }
  if (out.help || out.version)
    return true;
  if (out.checkSizes) {
    if (out.manifest.empty()) {
      error = "--check-sizes needs --manifest";
      return false;
    }
    return true;
  }
  if (out.cubin.empty() || out.manifest.empty()) {
    error = "--cubin and --manifest are required";
    return false;
  }
  if (!out.refEntry.empty() && out.ref.empty()) {
    error = "--ref-entry needs --ref";
    return false;
  }
  if (!out.noTime && out.iters < 1) {
    error = sawIters ? "--iters must be at least 1 (or use --no-time)"
                     : "--iters must be at least 1";
    return false;
  }
  return true;
}

bool cake::runner::encodeScalar(std::string_view text, DType type,
                                unsigned char bytes[8], size_t &size,
                                std::string &error) {
  std::string s(text);
  auto bad = [&](const char *expected) {
    error = "invalid value '" + s + "' for a " + dtypeName(type) +
            " scalar (expected " + expected + ")";
    return false;
  };
  std::memset(bytes, 0, 8);
  switch (type) {
  case DType::I32:
  case DType::I64: {
    int64_t v;
    if (!parseInt(text, v))
      return bad("an integer");
    if (type == DType::I32) {
      if (v < std::numeric_limits<int32_t>::min() ||
          v > std::numeric_limits<int32_t>::max())
        return bad("a 32-bit integer");
      int32_t v32 = static_cast<int32_t>(v);
      std::memcpy(bytes, &v32, 4);
      size = 4;
    } else {
      std::memcpy(bytes, &v, 8);
      size = 8;
    }
    return true;
  }
  case DType::F32:
  case DType::F64: {
    double v;
    if (!parseDouble(text, v))
      return bad("a number");
    if (type == DType::F32) {
      float f = static_cast<float>(v);
      if (std::isinf(f) && !std::isinf(v))
        return bad("a number in f32 range");
      std::memcpy(bytes, &f, 4);
      size = 4;
    } else {
      std::memcpy(bytes, &v, 8);
      size = 8;
    }
    return true;
  }
  default:
    error = std::string("cannot pass a ") + dtypeName(type) + " scalar";
    return false;
  }
}
