//===- Options.cpp - cake-run command line and exit statuses --------------===//
//
// The command line is llvm::cl's (from the static libLLVMSupport). Its options
// are globals, so each parse first resets them. Values are taken as text and
// checked here, so that a bad one gets cake-run's own message.
//
//===----------------------------------------------------------------------===//

#include "Cake/Runner/Options.h"
#include "Cake/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sys/mman.h>
#include <unistd.h>

using namespace cake::abi;
using namespace cake::runner;
namespace cl = llvm::cl;

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

namespace {

template <typename Int> bool parseInt(std::string_view text, Int &out) {
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

namespace {

constexpr llvm::StringLiteral kProgram = "cake-run";

constexpr const char *kOverview =
    "run, check and time one CAKE kernel on a GPU\n"
    "\n"
    "  cake-run --cubin K.cubin --manifest K.json [--kernel ENTRY]\n"
    "           --sizes N=1000,D=128 [--scalar alpha=2.5] [--seed 1]\n"
    "           [--input x=x.bin,...] [--output-dir DIR]\n"
    "           [--outputs y,...] [--inouts z,...]\n"
    "           [--ref REF.cubin [--ref-entry ENTRY_ref]] [--rtol 1e-5]\n"
    "           [--warmup 10] [--warmup-ms 25] [--iters 50]\n"
    "           [--timer events|graph] [--timeout SECONDS]\n"
    "           [--no-time] [--device 0]\n"
    "  cake-run --check-sizes --manifest K.json [--kernel ENTRY] --sizes N=1000\n"
    "\n"
    "Runs one kernel of a CAKE manifest on seeded inputs, checks it (against\n"
    "the reference kernel with --ref), times it, and prints one JSON record.\n"
    "--sizes, --scalar, --input, --outputs and --inouts take comma-separated\n"
    "lists and may repeat. Exit codes: 0 ok, 1 wrong_result, 2 bad_arguments,\n"
    "3 launch_failure, 4 timeout, 5 no_device. See docs/Runner.md.\n";

cl::OptionCategory runCategory("cake-run options");

/// A valued option, read as text (checked by readOptions).
struct TextOption : cl::opt<std::string> {
  TextOption(llvm::StringRef name, const char *valueName, const char *help)
      : cl::opt<std::string>(name, cl::desc(help), cl::value_desc(valueName),
                             cl::cat(runCategory)) {}
};

/// A comma-separated list option that may repeat.
struct ListOption : cl::list<std::string> {
  ListOption(llvm::StringRef name, const char *valueName, const char *help)
      : cl::list<std::string>(name, cl::desc(help), cl::value_desc(valueName),
                              cl::CommaSeparated, cl::cat(runCategory)) {}
};

/// A flag.
struct FlagOption : cl::opt<bool> {
  FlagOption(llvm::StringRef name, const char *help)
      : cl::opt<bool>(name, cl::desc(help), cl::cat(runCategory)) {}
};

TextOption cubinOption("cubin", "K.cubin", "The kernel's cubin");
TextOption manifestOption("manifest", "K.json", "Its manifest (docs/Manifest.md)");
TextOption kernelOption("kernel", "ENTRY",
                        "The kernel's entry (default: the manifest's only kernel)");
ListOption sizesOption("sizes", "N=1000,...", "The manifest's symbols, NAME=VALUE");
ListOption scalarOption("scalar", "alpha=2.5", "The scalar parameters, NAME=VALUE");
TextOption seedOption("seed", "N", "Seed of the inputs' fill (default 1)");
ListOption inputOption("input", "x=x.bin,...",
                       "Input tensors read from raw files, NAME=PATH");
TextOption outputDirOption("output-dir", "DIR",
                           "Write each output tensor to DIR/NAME.bin");
ListOption outputsOption("outputs", "y,...",
                         "The declared outputs (poisoned, compared); the other "
                         "tensors are inputs");
ListOption inoutsOption("inouts", "z,...",
                        "The declared in-outs (filled, compared)");
TextOption refOption("ref", "REF.cubin",
                     "The reference kernel's cubin, to compare the outputs with");
TextOption refEntryOption("ref-entry", "ENTRY_ref",
                          "The reference kernel's entry (default <entry>_ref)");
TextOption rtolOption("rtol", "X",
                      "Bound on the relative L2 error of float outputs "
                      "(default 1e-5)");
TextOption warmupOption("warmup", "N", "Untimed launches (default 10)");
TextOption warmupMsOption("warmup-ms", "MS",
                          "Warm up until the GPU has run the kernel this long "
                          "(default 25; 0: only --warmup launches)");
TextOption timerOption("timer", "events|graph",
                       "Time each iteration with an event pair around one launch "
                       "(events, the default) or as a replayed CUDA graph of launches "
                       "(graph: no host launch latency)");
TextOption itersOption("iters", "N",
                       "Timed launches; the median is reported (default 50)");
TextOption timeoutOption("timeout", "SECONDS",
                         "Kill the run after this long (default 120, 0: none)");
FlagOption noTimeOption("no-time", "Check only, do not time");
TextOption deviceOption("device", "N", "The CUDA device (default 0)");
FlagOption checkSizesOption(
    "check-sizes", "Only evaluate the manifest for --sizes and print the "
                   "record (no cubin, scalars or GPU needed)");

/// The parser's one-time set-up: cake-run's version, and only cake-run's
/// options. libLLVMSupport registers some of its own (--stats, --color,
/// --rng-seed, ...): HideUnrelatedOptions hides them from --help, and they are
/// unregistered so that cake-run rejects them as unknown.
void setUpCommandLine() {
  static const bool done = [] {
    cl::SetVersionPrinter([](llvm::raw_ostream &os) {
      os << "CAKE version " CAKE_VERSION " (cake-run)\n";
    });
    cl::HideUnrelatedOptions(runCategory);
    std::vector<cl::Option *> foreign;
    for (auto &entry : cl::getRegisteredOptions())
      if (entry.second->getOptionHiddenFlag() == cl::ReallyHidden)
        foreign.push_back(entry.second);
    for (cl::Option *option : foreign)
      option->removeArgument();
    return true;
  }();
  (void)done;
}

/// Diverts stderr (fd 2) to memory until take(): llvm::cl writes an option's
/// own errors (a missing value, a bad flag value) to llvm::errs() whatever
/// error stream it is given, and a bad command line must leave stderr to
/// cake-run's one line. Without memfd, stderr is left alone.
class StderrCapture {
public:
  StderrCapture() {
    std::fflush(stderr);
    memoryFd = memfd_create("cake-run-stderr", MFD_CLOEXEC);
    savedFd = memoryFd >= 0 ? dup(STDERR_FILENO) : -1;
    if (savedFd >= 0)
      dup2(memoryFd, STDERR_FILENO);
  }
  ~StderrCapture() { take(); }

  /// Restores stderr; returns what was written to it meanwhile.
  std::string take() {
    std::string text;
    if (savedFd >= 0) {
      dup2(savedFd, STDERR_FILENO);
      close(savedFd);
      savedFd = -1;
      char buffer[4096];
      ssize_t n;
      while ((n = pread(memoryFd, buffer, sizeof(buffer), text.size())) > 0)
        text.append(buffer, static_cast<size_t>(n));
    }
    if (memoryFd >= 0)
      close(memoryFd);
    memoryFd = -1;
    return text;
  }

private:
  int memoryFd = -1, savedFd = -1;
};

/// llvm::cl's messages as one line, without the "cake-run: " each starts with
/// and its "Try: 'cake-run --help'" (cake-run's stderr line says it).
std::string oneLine(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string result;
  for (llvm::StringRef line : lines) {
    if (line.consume_front(kProgram))
      line.consume_front(": ");
    line = line.take_front(line.find(".  Try: ")).trim();
    if (line.empty())
      continue;
    if (!result.empty())
      result += "; ";
    result += line.str();
  }
  return result.empty() ? "invalid command line" : result;
}

/// Runs llvm::cl over argv (without argv[0]); on failure, `error` is its
/// message.
bool parseCommandLine(int argc, const char *const *argv, std::string &error) {
  // llvm::cl expands @FILE response files but keeps a missing one as an argument, which it
  // then calls unknown: say what is wrong instead.
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (arg.size() > 1 && arg.front() == '@' && !llvm::sys::fs::is_regular_file(arg.drop_front())) {
      error = "cannot read the response file '" + arg.drop_front().str() + "'";
      return false;
    }
  }
  setUpCommandLine();
  cl::ResetAllOptionOccurrences(); // Values back to their defaults too.
  // argv[0] names the program in llvm::cl's messages and --help.
  std::vector<const char *> args{kProgram.data()};
  args.insert(args.end(), argv, argv + argc);
  StderrCapture capture;
  // Given an error stream, llvm::cl reports and returns false rather than
  // calling exit(1); errs() is the stream its options' errors use too.
  bool ok = cl::ParseCommandLineOptions(static_cast<int>(args.size()),
                                        args.data(), kOverview, &llvm::errs());
  llvm::errs().flush();
  std::string text = capture.take();
  if (!ok)
    error = oneLine(text);
  return ok;
}

bool parseTolerance(std::string_view text, double &out) {
  return parseDouble(text, out) && out >= 0;
}

bool parseSeconds(std::string_view text, double &out) {
  return parseDouble(text, out) && out >= 0 && out <= 1e6;
}

bool parseTimer(std::string_view text, std::string &out) {
  if (text != "events" && text != "graph")
    return false;
  out = std::string(text);
  return true;
}

bool parseCount(std::string_view text, int64_t &out) {
  return parseInt(text, out) && out >= 0 && out <= 1000000;
}

/// Reads a valued option into `out` with `parse`; absent, `out` keeps its
/// default.
template <typename T, typename Parse>
bool readValue(const TextOption &option, Parse parse, const char *expected,
               T &out, std::string &error) {
  if (option.getNumOccurrences() == 0 || parse(option.getValue(), out))
    return true;
  error = "invalid value '" + option.getValue() + "' for --" +
          option.ArgStr.str() + " (expected " + expected + ")";
  return false;
}

/// The NAME=VALUE items of --scalar or --input; a name given twice is an error.
bool readAssignments(const ListOption &option,
                     std::map<std::string, std::string> &out,
                     std::string &error) {
  const std::string what = option.ArgStr.str();
  auto add = [&](const std::string &name, std::string_view value) {
    if (out.emplace(name, std::string(value)).second)
      return true;
    error = what + " '" + name + "' given twice";
    return false;
  };
  for (const std::string &item : option)
    if (!forEachAssignment(item, what.c_str(), add, error))
      return false;
  return true;
}

/// The tensor names of --outputs or --inouts.
bool readNames(const ListOption &option, std::vector<std::string> &out,
               std::string &error) {
  for (const std::string &name : option) {
    if (name.empty()) {
      error = "--" + option.ArgStr.str() +
              " expects a comma-separated list of tensor names";
      return false;
    }
    out.push_back(name);
  }
  return true;
}

/// Copies the parsed options into `out`, checking their values.
bool readOptions(RunOptions &out, std::string &error) {
  out.cubin = cubinOption;
  out.manifest = manifestOption;
  out.kernel = kernelOption;
  out.outputDir = outputDirOption;
  out.ref = refOption;
  out.refEntry = refEntryOption;
  out.noTime = noTimeOption;
  out.checkSizes = checkSizesOption;
  for (const std::string &item : sizesOption)
    if (!parseSizeList(item, out.sizes, error))
      return false;
  const char *count = "a non-negative integer";
  return readAssignments(scalarOption, out.scalars, error) &&
         readAssignments(inputOption, out.inputFiles, error) &&
         readNames(outputsOption, out.outputs, error) &&
         readNames(inoutsOption, out.inouts, error) &&
         readValue(seedOption, parseInt<uint64_t>, count, out.seed, error) &&
         readValue(rtolOption, parseTolerance, "a non-negative number",
                   out.rtol, error) &&
         readValue(timeoutOption, parseSeconds,
                   "a number of seconds, 0 for none", out.timeoutSeconds,
                   error) &&
         readValue(warmupOption, parseCount, count, out.warmup, error) &&
         readValue(warmupMsOption, parseSeconds,
                   "a non-negative number of milliseconds", out.warmupMs, error) &&
         readValue(timerOption, parseTimer, "events or graph", out.timer, error) &&
         readValue(itersOption, parseCount, count, out.iters, error) &&
         readValue(deviceOption, parseCount, count, out.device, error);
}

/// What is wrong with the options taken together, or null.
const char *combinationError(const RunOptions &options) {
  if (options.checkSizes)
    return options.manifest.empty() ? "--check-sizes needs --manifest" : nullptr;
  if (options.cubin.empty() || options.manifest.empty())
    return "--cubin and --manifest are required";
  if (!options.refEntry.empty() && options.ref.empty())
    return "--ref-entry needs --ref";
  if (!options.noTime && options.iters < 1)
    return "--iters must be at least 1 (or use --no-time)";
  return nullptr;
}

} // namespace

bool cake::runner::parseRunOptions(int argc, const char *const *argv,
                                   RunOptions &out, std::string &error) {
  out = RunOptions();
  if (!parseCommandLine(argc, argv, error) || !readOptions(out, error))
    return false;
  if (const char *problem = combinationError(out)) {
    error = problem;
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
