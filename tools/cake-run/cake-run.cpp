//===- cake-run.cpp - Run, check and time one CAKE kernel on a GPU --------===//
//
// The parent validates the command line and the manifest, then forks a worker
// that does every CUDA call (Worker.cpp) and sends its JSON record back over a
// pipe. The parent enforces --timeout (SIGKILL), turns a worker crash into a
// launch_failure record, and prints exactly one JSON record on stdout.
// See docs/Runner.md.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include "Cake/Runner/FileUtil.h"
#include "Cake/Runner/HangReport.h"

#include <cerrno>
#include <chrono>
#include <optional>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cake::run;
using namespace cake::abi;
using namespace cake::runner;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// A record with every field present (null until known), in a stable order.
Record makeSkeletonRecord() {
  Record r;
  for (const char *key :
       {"status", "exit_code", "error", "kernel", "cubin", "manifest", "ref",
        "ref_entry", "sizes", "seed", "rtol", "device", "compute_capability",
        "sm_count", "l2_bytes", "driver_version", "grid", "block", "cluster",
        "dynamic_shared_bytes", "num_regs", "local_bytes", "time_ms",
        "time_ms_min", "time_ms_max", "warmup", "warmup_ms", "timer", "iters",
        "launches_per_replay", "rotation_copies",
        "footprint_bytes", "ref_check", "hang"})
    r.set(key, Value(nullptr));
  r.set("outputs", Array());
  r.set("inputs_modified", Array());
  return r;
}

Array dims(const std::array<int64_t, 3> &d) { return Array(d); }

Object sizesJson(const SymbolMap &sizes) {
  Object out;
  for (const auto &[name, value] : sizes)
    out[name] = value;
  return out;
}

/// Prints the record with its final status and returns the exit code.
int emit(Record &record, RunStatus status, const std::string &error) {
  record.set("status", Value(runStatusName(status)));
  record.set("exit_code", Value(static_cast<int>(status)));
  record.set("error", error.empty() ? Value(nullptr) : Value(error));
  std::string text = record.toString();
  std::fprintf(stdout, "%s\n", text.c_str());
  std::fflush(stdout);
  return static_cast<int>(status);
}

/// --check-sizes: the manifest's verdict on --sizes (every constraint, the extents and the grid),
/// with the runner's own expression evaluator, so that tools (the harness) need no copy of it.
/// No cubin, scalars or GPU: ok (exit 0) with the grid, or bad_arguments naming what fails.
int checkSizes(RunContext &ctx, Manifest &manifest, Record &record) {
  const RunOptions &opts = ctx.options;
  std::string error;
  record.set("manifest", Value(opts.manifest));
  record.set("sizes", sizesJson(opts.sizes));
  if (!loadManifestFile(opts.manifest, manifest, error))
    return emit(record, RunStatus::BadArguments, error);
  ctx.kernel = findKernel(manifest, opts.kernel, error);
  if (!ctx.kernel)
    return emit(record, RunStatus::BadArguments, error);
  record.set("kernel", Value(ctx.kernel->entry));
  if (!resolveLaunch(*ctx.kernel, opts.sizes, ctx.launch, error))
    return emit(record, RunStatus::BadArguments, error);
  record.set("grid", dims(ctx.launch.grid));
  record.set("block", dims(ctx.kernel->block));
  return emit(record, RunStatus::Ok, "");
}

/// Validates everything that needs no GPU. Fills `ctx` and the record's
/// argument fields; on failure sets `error` (a bad_arguments failure).
bool prepare(RunContext &ctx, Manifest &manifest, Record &record,
             std::string &error) {
  const RunOptions &opts = ctx.options;
  record.set("cubin", Value(opts.cubin));
  record.set("manifest", Value(opts.manifest));
  record.set("seed", Value(static_cast<int64_t>(opts.seed)));
  record.set("rtol", Value(opts.rtol));
  record.set("warmup", Value(opts.warmup));
  record.set("timer", Value(opts.timer));
  record.set("iters", Value(opts.noTime ? 0 : opts.iters));
  record.set("sizes", sizesJson(opts.sizes));

  if (!loadManifestFile(opts.manifest, manifest, error))
    return false;
  ctx.kernel = findKernel(manifest, opts.kernel, error);
  if (!ctx.kernel)
    return false;
  // The task's declared roles take precedence over what the candidate's own accesses say.
  KernelDesc &declared = manifest.kernels[ctx.kernel - manifest.kernels.data()];
  if (!applyDeclaredRoles(declared, opts.outputs, opts.inouts, error))
    return false;
  const KernelDesc &kernel = *ctx.kernel;
  record.set("kernel", Value(kernel.entry));
  record.set("block", dims(kernel.block));
  record.set("cluster", dims(kernel.cluster));
  record.set("dynamic_shared_bytes", Value(kernel.dynamicSharedBytes));
  if (!resolveLaunch(kernel, opts.sizes, ctx.launch, error))
    return false;
  record.set("grid", dims(ctx.launch.grid));

  ctx.scalarBytes.resize(kernel.params.size());
  size_t scalarsUsed = 0;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ParamDesc &p = kernel.params[i];
    if (p.kind != ParamKind::Scalar)
      continue;
    auto it = opts.scalars.find(p.name);
    if (it == opts.scalars.end()) {
      error = "missing scalar '" + p.name + "' (give --scalar " + p.name +
              "=VALUE)";
      return false;
    }
    ++scalarsUsed;
    size_t size;
    if (!encodeScalar(it->second, p.dtype, ctx.scalarBytes[i].data(), size,
                      error)) {
      error = "scalar '" + p.name + "': " + error;
      return false;
    }
  }
  for (const auto &input : opts.inputFiles) {
    bool known = false;
    for (const ParamDesc &p : kernel.params)
      known |= p.kind == ParamKind::Tensor && p.name == input.first && p.isInput();
    if (!known) {
      error = "unknown input '" + input.first + "' (kernel '" + kernel.entry +
              "' has no tensor parameter of that name that it reads)";
      return false;
    }
  }
  if (scalarsUsed != opts.scalars.size()) {
    for (const auto &scalar : opts.scalars) {
      bool known = false;
      for (const ParamDesc &p : kernel.params)
        known |= p.kind == ParamKind::Scalar && p.name == scalar.first;
      if (!known) {
        error = "unknown scalar '" + scalar.first + "' (kernel '" +
                kernel.entry + "' has no such scalar parameter)";
        return false;
      }
    }
  }

  if (!readFile(opts.cubin, ctx.cubin, error))
    return false;
  if (!opts.ref.empty()) {
    ctx.refEntry = opts.refEntry.empty() ? kernel.entry + "_ref" : opts.refEntry;
    record.set("ref", Value(opts.ref));
    record.set("ref_entry", Value(ctx.refEntry));
    if (!readFile(opts.ref, ctx.refCubin, error))
      return false;
  }
  return true;
}

bool writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// The forked worker: runs on the device, writes its record, exits.
[[noreturn]] void workerMain(const RunContext &ctx, Record record,
                             int writeFd) {
  // Die with the parent, so a killed cake-run never leaves a GPU job behind.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::string error;
  RunStatus status = runOnDevice(ctx, record, error);
  record.set("status", Value(runStatusName(status)));
  record.set("exit_code", Value(static_cast<int>(status)));
  record.set("error", error.empty() ? Value(nullptr) : Value(error));
  writeAll(writeFd, record.toString());
  close(writeFd);
  // Skip static destructors and atexit handlers of the driver.
  _exit(static_cast<int>(status));
}

/// A hang report from the debug lowering turns the run into a timeout that names the op.
/// Without a trapped record, warps still at barriers after a timeout are the report.
int emitHang(const RunContext &ctx, Record &record, bool timedOut) {
  if (!ctx.hangReport)
    return -1;
  Object report;
  Array barriers;
  std::string message, atBarriers;
  bool trapped = decodeHangReport(ctx.hangReport, *ctx.kernel, report, message);
  bool waiting = decodeHangTable(ctx.hangReport + kHangTableOffsetBytes / 4, *ctx.kernel,
                                 barriers, atBarriers);
  if (!trapped && !(timedOut && waiting))
    return -1;
  if (!trapped) {
    report = Object();
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", ctx.options.timeoutSeconds);
    message = std::string("hang: the run did not finish within ") + seconds + " s";
  }
  if (waiting) {
    report["barriers"] = std::move(barriers);
    message += (trapped ? "; also waiting: " : "; waiting: ") + atBarriers;
  }
  record.set("hang", std::move(report));
  std::fprintf(stderr, "cake-run: %s\n", message.c_str());
  return emit(record, RunStatus::Timeout, message);
}

/// Forks the worker and relays its record; returns the exit code.
int superviseWorker(RunContext &ctx, Record &record) {
  // The hang buffer the worker maps for the device (record + barrier table); shared, so it
  // survives a kill.
  void *page = mmap(nullptr, kHangBufferBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                    -1, 0);
  if (page != MAP_FAILED) {
    ctx.hangReport = static_cast<uint32_t *>(page);
    ctx.hangReportBytes = kHangBufferBytes;
  }
  int fds[2];
  if (pipe(fds) != 0)
    return emit(record, RunStatus::LaunchFailure,
                std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    return emit(record, RunStatus::LaunchFailure,
                std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    close(fds[0]);
    workerMain(ctx, record, fds[1]);
  }
  close(fds[1]);

  using Clock = std::chrono::steady_clock;
  const double timeout = ctx.options.timeoutSeconds;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::microseconds(static_cast<int64_t>(timeout * 1e6));
  std::string text;
  bool timedOut = false;
  while (true) {
    int waitMs = -1;
    if (timeout > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - Clock::now()).count();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      waitMs = static_cast<int>(std::min<int64_t>(left, 1000));
    }
    pollfd pfd = {fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, waitMs);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // Re-check the deadline.
    if (ready < 0)
      break;
    char buffer[4096];
    ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // EOF: the worker is done (or died).
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);

  if (timedOut)
    kill(pid, SIGKILL);
  int waitStatus = 0;
  while (waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR) {
  }
  // The worker's record (device, registers, ...) when it sent one, with the hang added.
  std::optional<int64_t> workerExit;
  std::string unparsable; // why the worker's output, when it wrote one, is not a record
  if (llvm::Expected<Value> parsed = llvm::json::parse(text)) {
    if (const Object *object = parsed->getAsObject())
      if ((workerExit = object->getInteger("exit_code")))
        record.merge(*object);
  } else {
    unparsable = llvm::toString(parsed.takeError());
  }
  bool haveRecord = workerExit.has_value();
  if (int code = emitHang(ctx, record, timedOut); code >= 0)
    return code;
  if (timedOut) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", timeout);
    return emit(record, RunStatus::Timeout,
                std::string("the run did not finish within ") + seconds +
                    " s; the worker was killed");
  }
  if (haveRecord) {
    std::fprintf(stdout, "%s\n", text.c_str());
    std::fflush(stdout);
    return static_cast<int>(*workerExit);
  }
  if (WIFSIGNALED(waitStatus)) {
    int sig = WTERMSIG(waitStatus);
    const char *name = strsignal(sig);
    return emit(record, RunStatus::LaunchFailure,
                "the worker was killed by signal " + std::to_string(sig) +
                    " (" + (name ? name : "?") + ")");
  }
  return emit(record, RunStatus::LaunchFailure,
              "the worker exited with status " +
                  std::to_string(WEXITSTATUS(waitStatus)) +
                  (text.empty() || unparsable.empty()
                       ? std::string(" without sending a record")
                       : " and its record is not valid JSON (" + unparsable +
                             ")"));
}

} // namespace

int main(int argc, char **argv) {
  Record record = makeSkeletonRecord();
  RunContext ctx;
  Manifest manifest;
  std::string error;
  // --help and --version print and exit(0) inside the parser.
  if (!parseRunOptions(argc - 1, argv + 1, ctx.options, error)) {
    std::fprintf(stderr, "cake-run: %s (cake-run --help for the options)\n", error.c_str());
    return emit(record, RunStatus::BadArguments, error);
  }
  if (ctx.options.checkSizes)
    return checkSizes(ctx, manifest, record);
  if (!prepare(ctx, manifest, record, error))
    return emit(record, RunStatus::BadArguments, error);
  // A check that compares nothing proves nothing: a kernel that writes no tensor fails.
  if (!ctx.options.ref.empty() && !hasOutput(*ctx.kernel))
    return emit(record, RunStatus::WrongResult,
                "no output to compare: kernel '" + ctx.kernel->entry +
                    "' writes no tensor (declare the outputs with --outputs)");
  return superviseWorker(ctx, record);
}
