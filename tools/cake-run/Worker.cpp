//===- Worker.cpp - cake-run's GPU work (runs in the forked worker) -------===//
//
// Allocates and fills the tensors, runs the candidate (and the reference),
// checks the outputs and times the candidate. Every driver call is checked;
// the first failure ends the run with its message. The worker is a
// short-lived process: device memory is reclaimed when it exits.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include "CudaDriver.h"

#include "Cake/Runner/Compare.h"
#include "Cake/Runner/Cubin.h"
#include "Cake/Runner/FileUtil.h"
#include "Cake/Runner/Fill.h"
#include "Cake/Runner/HangReport.h"

#include <algorithm>
#include <cmath>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <map>

using namespace cake::run;
using namespace cake::abi;
using namespace cake::runner;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// Device buffers of the tensor parameters, indexed like
/// ResolvedLaunch::tensors.
using BufferSet = std::vector<CUdeviceptr>;

/// A kernel's argument array: one 8-byte slot per parameter.
struct KernelArgs {
  std::vector<std::array<unsigned char, 8>> slots;
  std::vector<void *> pointers;

  void add(const void *value, size_t size) {
    slots.emplace_back();
    slots.back().fill(0);
    std::memcpy(slots.back().data(), value, size);
  }
  /// Call after the last `add`: slots no longer move.
  void **finish() {
    pointers.clear();
    for (auto &slot : slots)
      pointers.push_back(slot.data());
    return pointers.data();
  }
};

/// Threads per block and blocks per SM of a reference-kernel launch.
constexpr int64_t kRefBlockSize = 256;
constexpr int64_t kRefBlocksPerSM = 4;
/// Above this, the dynamic shared memory needs an opt-in attribute.
constexpr int64_t kDefaultMaxDynamicShared = 48 * 1024;

class DeviceRun {
public:
  DeviceRun(const RunContext &ctx, Record &record, std::string &error)
      : ctx(ctx), kernel(*ctx.kernel), launchInfo(ctx.launch), record(record),
        error(error) {}

  RunStatus run();

private:
  bool check(CUresult result, const char *what) {
    if (result == CUDA_SUCCESS)
      return true;
    error = driver.describe(result, what);
    return false;
  }

  const ParamDesc &paramOf(const ResolvedTensor &t) const {
    return kernel.params[t.paramIndex];
  }
  size_t bytesOf(const ResolvedTensor &t) const {
    return static_cast<size_t>(t.spanElements) * dtypeSize(paramOf(t).dtype);
  }

  RunStatus setUp();
  bool loadFunctions();
  std::string archMismatch(const char *which, const std::string &target) const;
  bool mapHangReport(CUmodule module);
  bool allocate(size_t bytes, CUdeviceptr &ptr, CUresult &result);
  bool initBuffers(BufferSet &set);
  bool makeArgs(const BufferSet &set, KernelArgs &args);
  bool tensorMapFor(size_t paramIndex, const BufferSet &set, CUdeviceptr &map);
  bool launch(CUfunction function, const std::array<int64_t, 3> &grid,
              const std::array<int64_t, 3> &block, unsigned sharedBytes,
              bool cluster, void **args, const char *what);
  bool launchCandidate(void **args, const char *what) {
    return launch(function, launchInfo.grid, kernel.block,
                  static_cast<unsigned>(kernel.dynamicSharedBytes),
                  useClusterAttribute, args, what);
  }
  bool launchReference(CUfunction f, void **args, const char *what) {
    return launch(f, {kRefBlocksPerSM * smCount, 1, 1}, {kRefBlockSize, 1, 1},
                  0, false, args, what);
  }
  bool synchronize(const char *what) {
    return check(driver.cuCtxSynchronize(), what);
  }
  bool download(const ResolvedTensor &t, CUdeviceptr ptr,
                std::vector<unsigned char> &logical);
  bool runReference(std::vector<std::vector<unsigned char>> &refOutputs);
  bool runChecker(const BufferSet &candidate, uint64_t &bad);
  bool time(const BufferSet &primary);
  /// Launches `next()`'s argument sets until warm (RunOptions::warmup, warmupMs);
  /// `perLaunchMs`: the GPU time per launch the last round saw.
  template <typename Next> bool warmUp(Next next, double &perLaunchMs);
  template <typename Next> bool timeEvents(Next next, std::vector<double> &times);
  template <typename Next>
  bool timeGraph(Next next, double perLaunchMs, std::vector<double> &times);
  /// The GPU time between two events recorded around `body` on launchStream.
  template <typename Body> bool elapsed(Body body, double &ms);
  bool writeOutputs(const std::vector<std::vector<unsigned char>> &outputs);

  CudaDriver driver;
  const RunContext &ctx;
  const KernelDesc &kernel;
  const ResolvedLaunch &launchInfo;
  Record &record;
  std::string &error;

  CUdevice device = 0;
  CUfunction function = nullptr;
  CUfunction refFunction = nullptr;
  CUfunction checkFunction = nullptr; ///< Optional `<ref-entry>_check`.
  bool useClusterAttribute = false;
  CUstream launchStream = nullptr; ///< Where launches go (a capture stream for --timer graph).
  int64_t smCount = 1;
  int64_t l2Bytes = 0;
  int ccMajor = 0, ccMinor = 0; ///< The device's compute capability.
  /// Device copies of encoded tensor maps, by (TMA parameter, tensor buffer).
  std::map<std::pair<size_t, CUdeviceptr>, CUdeviceptr> tensorMaps;
  /// Seeded initial contents of each input tensor (empty for write-only).
  std::vector<std::vector<unsigned char>> hostInputs;
};

RunStatus DeviceRun::setUp() {
  if (!driver.load(error))
    return RunStatus::NoDevice;
  if (!check(driver.cuInit(0), "cuInit"))
    return RunStatus::NoDevice;
  int count = 0;
  if (!check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return RunStatus::NoDevice;
  if (ctx.options.device >= count) {
    error = "no CUDA device " + std::to_string(ctx.options.device) + " (" +
            std::to_string(count) + " present)";
    return RunStatus::NoDevice;
  }
  if (!check(driver.cuDeviceGet(&device, static_cast<int>(ctx.options.device)),
             "cuDeviceGet"))
    return RunStatus::NoDevice;

  char name[256] = {0};
  int sms = 0, l2 = 0, major = 0, minor = 0, version = 0;
  if (!check(driver.cuDeviceGetName(name, sizeof(name) - 1, device),
             "cuDeviceGetName") ||
      !check(driver.cuDeviceGetAttribute(
                 &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
             "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)") ||
      !check(driver.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                                         device),
             "cuDeviceGetAttribute(L2_CACHE_SIZE)") ||
      !check(driver.cuDeviceGetAttribute(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
             "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)") ||
      !check(driver.cuDeviceGetAttribute(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
             "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)") ||
      !check(driver.cuDriverGetVersion(&version), "cuDriverGetVersion"))
    return RunStatus::LaunchFailure;
  smCount = sms > 0 ? sms : 1;
  l2Bytes = l2;
  ccMajor = major;
  ccMinor = minor;
  // json::Value(const char *) only refers to its text: copy it out of the stack buffer.
  record.set("device", Value(std::string(name)));
  record.set("compute_capability",
             Value(std::to_string(major) + "." +
                               std::to_string(minor)));
  record.set("sm_count", Value(sms));
  record.set("l2_bytes", Value(l2));
  record.set("driver_version", Value(version));

  CUcontext context = nullptr;
  if (!check(driver.cuDevicePrimaryCtxRetain(&context, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
      !loadFunctions())
    return RunStatus::LaunchFailure;
  return RunStatus::Ok;
}

/// A cubin compiled with --hang-timeout-ms has the report global: point it at the shared page.
bool DeviceRun::mapHangReport(CUmodule module) {
  CUdeviceptr global = 0;
  size_t bytes = 0;
  if (!ctx.hangReport ||
      findCubinSymbol(ctx.cubin, kHangReportSymbol) == SymbolPresence::Absent ||
      driver.cuModuleGetGlobal(&global, &bytes, module, kHangReportSymbol) != CUDA_SUCCESS)
    return true; // Not a debug build (or no page): its waits trap without a report.
  CUdeviceptr mapped = 0;
  return check(driver.cuMemHostRegister(ctx.hangReport, ctx.hangReportBytes,
                                        CU_MEMHOSTREGISTER_DEVICEMAP),
               "cuMemHostRegister (hang report)") &&
         check(driver.cuMemHostGetDevicePointer(&mapped, ctx.hangReport, 0),
               "cuMemHostGetDevicePointer (hang report)") &&
         check(driver.cuMemcpyHtoD(global, &mapped, sizeof(mapped)),
               "cuMemcpyHtoD (hang report address)");
}

/// The error for a cubin built for another architecture than the device's: both, and the fix.
std::string DeviceRun::archMismatch(const char *which, const std::string &target) const {
  std::string sm = "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
  return std::string("the ") + which + " cubin has no code for this GPU: it was built for " +
         (target.empty() ? std::string("another architecture") : target) + ", the device is " + sm +
         " (compute capability " + std::to_string(ccMajor) + "." + std::to_string(ccMinor) +
         "); compile for it (cake.kernel target = \"" + sm + (sm == "sm_90" ? "a" : "") +
         "\", or nvcc -arch=" + sm + " for a reference)";
}

bool DeviceRun::loadFunctions() {
  CUmodule module = nullptr;
  CUresult loaded = driver.cuModuleLoadData(&module, ctx.cubin.data());
  if (loaded == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    error = archMismatch("candidate", kernel.target);
    return false;
  }
  if (!check(loaded, "cuModuleLoadData (candidate cubin)") ||
      !check(driver.cuModuleGetFunction(&function, module, kernel.entry.c_str()),
             ("cuModuleGetFunction('" + kernel.entry + "')").c_str()) ||
      !mapHangReport(module))
    return false;

  int regs = 0, localBytes = 0, maxThreads = 0, requiredClusterWidth = 0;
  if (!check(driver.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                       function),
             "cuFuncGetAttribute(NUM_REGS)") ||
      !check(driver.cuFuncGetAttribute(
                 &localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function),
             "cuFuncGetAttribute(LOCAL_SIZE_BYTES)") ||
      !check(driver.cuFuncGetAttribute(
                 &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
             "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)"))
    return false;
  record.set("num_regs", Value(regs));
  record.set("local_bytes", Value(localBytes));

  if (kernel.dynamicSharedBytes > kDefaultMaxDynamicShared &&
      !check(driver.cuFuncSetAttribute(
                 function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                 static_cast<int>(kernel.dynamicSharedBytes)),
             "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
    return false;

  if (kernel.hasCluster()) {
    // A cluster shape compiled into the kernel applies by itself; otherwise
    // it is given at launch (cuLaunchKernelEx).
    if (!check(driver.cuFuncGetAttribute(&requiredClusterWidth,
                                         CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
                                         function),
               "cuFuncGetAttribute(REQUIRED_CLUSTER_WIDTH)"))
      return false;
    useClusterAttribute = requiredClusterWidth == 0;
    if (useClusterAttribute && !driver.cuLaunchKernelEx) {
      error = "the CUDA driver lacks cuLaunchKernelEx, needed for clusters";
      return false;
    }
    int64_t clusterSize = kernel.cluster[0] * kernel.cluster[1] * kernel.cluster[2];
    if (useClusterAttribute && clusterSize > 8 &&
        !check(driver.cuFuncSetAttribute(
                   function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
               "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"))
      return false;
  }

  if (ctx.refCubin.empty())
    return true;
  CUmodule refModule = nullptr;
  CUresult refLoaded = driver.cuModuleLoadData(&refModule, ctx.refCubin.data());
  if (refLoaded == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    error = archMismatch("reference", "");
    return false;
  }
  if (!check(refLoaded, "cuModuleLoadData (reference cubin)") ||
      !check(driver.cuModuleGetFunction(&refFunction, refModule,
                                        ctx.refEntry.c_str()),
             ("cuModuleGetFunction('" + ctx.refEntry + "')").c_str()))
    return false;
  // Look in the ELF first: a failing driver lookup is an API error under compute-sanitizer.
  std::string checkName = ctx.refEntry + "_check";
  if (findCubinSymbol(ctx.refCubin, checkName) == SymbolPresence::Absent) {
    checkFunction = nullptr;
    return true;
  }
  CUresult result =
      driver.cuModuleGetFunction(&checkFunction, refModule, checkName.c_str());
  if (result == CUDA_ERROR_NOT_FOUND) {
    checkFunction = nullptr;
    return true;
  }
  return check(result, ("cuModuleGetFunction('" + checkName + "')").c_str());
}

bool DeviceRun::allocate(size_t bytes, CUdeviceptr &ptr, CUresult &result) {
  // cuMemAlloc rejects 0 bytes; an empty tensor still gets a valid pointer.
  result = driver.cuMemAlloc(&ptr, bytes ? bytes : 16);
  return check(result, "cuMemAlloc");
}

bool DeviceRun::initBuffers(BufferSet &set) {
  set.assign(launchInfo.tensors.size(), 0);
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ResolvedTensor &t = launchInfo.tensors[i];
    size_t bytes = bytesOf(t);
    CUresult result;
    if (!allocate(bytes, set[i], result))
      return false;
    if (bytes == 0)
      continue;
    if (paramOf(t).isInput()) {
      if (!check(driver.cuMemcpyHtoD(set[i], hostInputs[i].data(), bytes),
                 "cuMemcpyHtoD"))
        return false;
    } else if (!check(driver.cuMemsetD8(set[i], kPoisonByte, bytes),
                      "cuMemsetD8")) {
      return false;
    }
  }
  return true;
}

bool DeviceRun::makeArgs(const BufferSet &set, KernelArgs &args) {
  args = KernelArgs();
  size_t tensor = 0, symbol = 0;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    switch (kernel.params[i].kind) {
    case ParamKind::Tensor:
      args.add(&set[tensor++], sizeof(CUdeviceptr));
      break;
    case ParamKind::Scalar:
      args.add(ctx.scalarBytes[i].data(), 8);
      break;
    case ParamKind::Symbol:
      args.add(&launchInfo.symbolValues[symbol++], sizeof(int64_t));
      break;
    case ParamKind::Tma: {
      CUdeviceptr map = 0;
      if (!tensorMapFor(i, set, map))
        return false;
      args.add(&map, sizeof(CUdeviceptr));
      break;
    }
    }
  }
  return true;
}

/// Encodes (once per buffer) the tiled tensor map of TMA parameter `paramIndex` over the
/// tensor it describes in `set`, and places it in device memory: the kernel receives a pointer.
bool DeviceRun::tensorMapFor(size_t paramIndex, const BufferSet &set, CUdeviceptr &map) {
  const ParamDesc &p = kernel.params[paramIndex];
  size_t tensor = 0;
  while (launchInfo.tensors[tensor].paramIndex != p.tensorParam)
    ++tensor;
  CUdeviceptr base = set[tensor];
  auto key = std::make_pair(paramIndex, base);
  if (auto it = tensorMaps.find(key); it != tensorMaps.end()) {
    map = it->second;
    return true;
  }
  if (!driver.cuTensorMapEncodeTiled) {
    error = "this CUDA driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12+)";
    return false;
  }
  const ResolvedTensor &t = launchInfo.tensors[tensor];
  size_t rank = t.shape.size(), bytes = dtypeSize(p.dtype);
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) { // Tensor maps run innermost first.
    dims[i] = static_cast<cuuint64_t>(t.shape[rank - 1 - i]);
    box[i] = static_cast<cuuint32_t>(p.box[rank - 1 - i]);
    elementStrides[i] = 1;
    if (i + 1 < rank)
      strides[i] = static_cast<cuuint64_t>(t.strides[rank - 2 - i]) * bytes;
  }
  CUtensorMapDataType type;
  switch (p.dtype) {
  case DType::F16: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
  case DType::BF16: type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
  case DType::F32: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
  case DType::F64: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT64; break;
  case DType::I8:
  case DType::F8E4M3:
  case DType::F8E5M2: type = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  case DType::I32: type = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
  case DType::I64: type = CU_TENSOR_MAP_DATA_TYPE_INT64; break;
  }
  CUtensorMapSwizzle swizzle = p.swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                               : p.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                               : p.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                 : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap encoded;
  // Out-of-bounds elements of a box read as zeros: ragged tiles need no masking.
  if (!check(driver.cuTensorMapEncodeTiled(
                 &encoded, type, static_cast<cuuint32_t>(rank), reinterpret_cast<void *>(base),
                 dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
             ("cuTensorMapEncodeTiled ('" + p.name + "')").c_str()))
    return false;
  CUresult result;
  if (!allocate(sizeof(encoded), map, result) ||
      !check(driver.cuMemcpyHtoD(map, &encoded, sizeof(encoded)), "cuMemcpyHtoD (tensor map)"))
    return false;
  tensorMaps[key] = map;
  return true;
}

bool DeviceRun::launch(CUfunction f, const std::array<int64_t, 3> &grid,
                       const std::array<int64_t, 3> &block,
                       unsigned sharedBytes, bool cluster, void **args,
                       const char *what) {
  auto u = [](int64_t v) { return static_cast<unsigned>(v); };
  if (!cluster)
    return check(driver.cuLaunchKernel(f, u(grid[0]), u(grid[1]), u(grid[2]),
                                       u(block[0]), u(block[1]), u(block[2]),
                                       sharedBytes, launchStream, args, nullptr),
                 what);
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = u(kernel.cluster[0]);
  attribute.value.clusterDim.y = u(kernel.cluster[1]);
  attribute.value.clusterDim.z = u(kernel.cluster[2]);
  const unsigned grid3[3] = {u(grid[0]), u(grid[1]), u(grid[2])};
  const unsigned block3[3] = {u(block[0]), u(block[1]), u(block[2])};
  return check(driver.launchEx(f, grid3, block3, sharedBytes, launchStream, args, &attribute, 1),
               what);
}

template <typename Body> bool DeviceRun::elapsed(Body body, double &ms) {
  CUevent start = nullptr, stop = nullptr;
  float value = 0;
  bool ok = check(driver.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate") &&
            check(driver.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate") &&
            check(driver.cuEventRecord(start, launchStream), "cuEventRecord") && body() &&
            check(driver.cuEventRecord(stop, launchStream), "cuEventRecord") &&
            check(driver.cuEventSynchronize(stop), "timed kernel execution") &&
            check(driver.cuEventElapsedTime(&value, start, stop), "cuEventElapsedTime");
  if (start)
    driver.cuEventDestroy(start);
  if (stop)
    driver.cuEventDestroy(stop);
  ms = value;
  return ok;
}

template <typename Next> bool DeviceRun::warmUp(Next next, double &perLaunchMs) {
  // Rounds of launches, each twice the last, until the GPU has run --warmup-ms of
  // them (an idle GPU needs sustained work to reach its boost clock) and at least
  // --warmup launches; bounded so that a slow kernel is not warmed for long.
  constexpr int64_t kMostLaunches = 1 << 17, kLargestRound = 4096;
  int64_t round = std::max<int64_t>(ctx.options.warmup, 1), done = 0;
  double total = 0;
  while ((done < ctx.options.warmup || total < ctx.options.warmupMs) &&
         done < kMostLaunches && total < 10 * ctx.options.warmupMs + 1000) {
    double ms = 0;
    if (!elapsed(
            [&] {
              for (int64_t i = 0; i < round; ++i)
                if (!launchCandidate(next(), "cuLaunchKernel (warm-up)"))
                  return false;
              return true;
            },
            ms))
      return false;
    total += ms;
    done += round;
    perLaunchMs = ms / static_cast<double>(round);
    round = std::min(2 * round, kLargestRound);
  }
  record.set("warmup_ms", Value(total));
  return true;
}

template <typename Next>
bool DeviceRun::timeEvents(Next next, std::vector<double> &times) {
  int64_t iters = ctx.options.iters;
  std::vector<CUevent> start(iters), stop(iters);
  for (int64_t i = 0; i < iters; ++i)
    if (!check(driver.cuEventCreate(&start[i], CU_EVENT_DEFAULT), "cuEventCreate") ||
        !check(driver.cuEventCreate(&stop[i], CU_EVENT_DEFAULT), "cuEventCreate"))
      return false;
  for (int64_t i = 0; i < iters; ++i) {
    if (!check(driver.cuEventRecord(start[i], nullptr), "cuEventRecord") ||
        !launchCandidate(next(), "cuLaunchKernel (timed)") ||
        !check(driver.cuEventRecord(stop[i], nullptr), "cuEventRecord"))
      return false;
  }
  if (!check(driver.cuEventSynchronize(stop[iters - 1]), "timed kernel execution") ||
      !synchronize("timed kernel execution"))
    return false;
  for (int64_t i = 0; i < iters; ++i) {
    float ms = 0;
    if (!check(driver.cuEventElapsedTime(&ms, start[i], stop[i]),
               "cuEventElapsedTime"))
      return false;
    times.push_back(ms);
    if (!check(driver.cuEventDestroy(start[i]), "cuEventDestroy") ||
        !check(driver.cuEventDestroy(stop[i]), "cuEventDestroy"))
      return false;
  }
  return true;
}

template <typename Next>
bool DeviceRun::timeGraph(Next next, double perLaunchMs, std::vector<double> &times) {
  if (!driver.cuStreamCreate || !driver.cuStreamDestroy || !driver.cuStreamBeginCapture ||
      !driver.cuStreamEndCapture || !driver.cuGraphInstantiate || !driver.cuGraphLaunch ||
      !driver.cuGraphExecDestroy || !driver.cuGraphDestroy) {
    error = "--timer graph: the CUDA driver lacks graph capture (cuStreamBeginCapture, "
            "cuGraphInstantiateWithFlags, ...); use --timer events";
    return false;
  }
  // About 1 ms of work per replay, so that the gap before each replay is spread thin
  // (one launch when there was no warm-up to say how long a launch takes).
  int64_t perReplay =
      perLaunchMs > 0 ? static_cast<int64_t>(std::clamp(
                            std::ceil(1.0 / std::max(perLaunchMs, 1e-4)), 1.0, 1000.0))
                      : 1;
  record.set("launches_per_replay", Value(perReplay));
  CUstream stream = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  if (!check(driver.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return false;
  launchStream = stream;
  bool ok = check(driver.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED),
                  "cuStreamBeginCapture");
  bool capturing = ok;
  for (int64_t i = 0; ok && i < perReplay; ++i)
    ok = launchCandidate(next(), "cuLaunchKernel (captured)");
  if (capturing) { // End the capture whatever happened inside it.
    std::string launchError = error;
    bool ended = check(driver.cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
    if (!ok)
      error = launchError;
    ok = ok && ended;
  }
  ok = ok && check(driver.cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
  // One replay untimed (the graph's first upload), then --iters timed ones.
  ok = ok && check(driver.cuGraphLaunch(exec, stream), "cuGraphLaunch");
  for (int64_t i = 0; ok && i < ctx.options.iters; ++i) {
    double ms = 0;
    ok = elapsed([&] { return check(driver.cuGraphLaunch(exec, stream), "cuGraphLaunch"); },
                 ms);
    times.push_back(ms / static_cast<double>(perReplay));
  }
  launchStream = nullptr;
  if (exec)
    driver.cuGraphExecDestroy(exec);
  if (graph)
    driver.cuGraphDestroy(graph);
  driver.cuStreamDestroy(stream);
  return ok;
}

bool DeviceRun::download(const ResolvedTensor &t, CUdeviceptr ptr,
                         std::vector<unsigned char> &logical) {
  size_t bytes = bytesOf(t);
  std::vector<unsigned char> raw(bytes);
  if (bytes && !check(driver.cuMemcpyDtoH(raw.data(), ptr, bytes),
                      "cuMemcpyDtoH"))
    return false;
  if (t.contiguous)
    logical = std::move(raw);
  else
    gatherLogical(raw.data(), dtypeSize(paramOf(t).dtype), t.shape, t.strides,
                  logical);
  return true;
}

bool DeviceRun::runReference(std::vector<std::vector<unsigned char>> &refOutputs) {
  BufferSet refSet;
  if (!initBuffers(refSet))
    return false;
  KernelArgs args;
  if (!makeArgs(refSet, args) || !launchReference(refFunction, args.finish(), "cuLaunchKernel (reference)") ||
      !synchronize("reference kernel execution"))
    return false;
  refOutputs.resize(launchInfo.tensors.size());
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ResolvedTensor &t = launchInfo.tensors[i];
    if (paramOf(t).isOutput() && !download(t, refSet[i], refOutputs[i]))
      return false;
  }
  for (CUdeviceptr ptr : refSet)
    if (!check(driver.cuMemFree(ptr), "cuMemFree"))
      return false;
  return true;
}

bool DeviceRun::runChecker(const BufferSet &candidate, uint64_t &bad) {
  CUdeviceptr badPtr = 0;
  CUresult result;
  bad = 0;
  if (!allocate(sizeof(uint64_t), badPtr, result) ||
      !check(driver.cuMemsetD8(badPtr, 0, sizeof(uint64_t)), "cuMemsetD8"))
    return false;
  KernelArgs args;
  if (!makeArgs(candidate, args))
    return false;
  double rtol = ctx.options.rtol;
  args.add(&rtol, sizeof(rtol));
  args.add(&badPtr, sizeof(badPtr));
  return launchReference(checkFunction, args.finish(),
                         "cuLaunchKernel (reference checker)") &&
         synchronize("reference checker execution") &&
         check(driver.cuMemcpyDtoH(&bad, badPtr, sizeof(bad)), "cuMemcpyDtoH") &&
         check(driver.cuMemFree(badPtr), "cuMemFree");
}

bool DeviceRun::time(const BufferSet &primary) {
  uint64_t footprint = 0;
  for (const ResolvedTensor &t : launchInfo.tensors)
    footprint += bytesOf(t);
  size_t freeBytes = 0, totalBytes = 0;
  if (!check(driver.cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo"))
    return false;
  int64_t wanted = rotationCount(footprint, static_cast<uint64_t>(l2Bytes),
                                 freeBytes / 2);

  // Copy 0 is the primary set; the others start as copies of it.
  std::vector<BufferSet> sets(1, primary);
  while (static_cast<int64_t>(sets.size()) < wanted) {
    BufferSet copy(primary.size(), 0);
    bool outOfMemory = false;
    for (size_t i = 0; i < primary.size() && !outOfMemory; ++i) {
      size_t bytes = bytesOf(launchInfo.tensors[i]);
      CUresult result;
      if (!allocate(bytes, copy[i], result)) {
        if (result != CUDA_ERROR_OUT_OF_MEMORY)
          return false;
        outOfMemory = true; // Time with fewer copies.
        break;
      }
      if (bytes && !check(driver.cuMemcpyDtoD(copy[i], primary[i], bytes),
                          "cuMemcpyDtoD"))
        return false;
    }
    if (outOfMemory) {
      error.clear();
      break;
    }
    sets.push_back(std::move(copy));
  }
  std::vector<KernelArgs> args;
  for (const BufferSet &set : sets)
    if (!makeArgs(set, args.emplace_back()))
      return false;
  for (KernelArgs &a : args)
    a.finish();

  size_t n = sets.size();
  int64_t launched = 0;
  auto next = [&]() { return args[launched++ % n].pointers.data(); };
  double perLaunchMs = 0;
  std::vector<double> times;
  if (!warmUp(next, perLaunchMs) ||
      !(ctx.options.timer == "graph" ? timeGraph(next, perLaunchMs, times)
                                     : timeEvents(next, times)))
    return false;
  double minTime = times[0], maxTime = times[0];
  for (double t : times) {
    minTime = std::min(minTime, t);
    maxTime = std::max(maxTime, t);
  }
  record.set("time_ms", Value(median(times)));
  record.set("time_ms_min", Value(minTime));
  record.set("time_ms_max", Value(maxTime));
  record.set("rotation_copies", Value(static_cast<int64_t>(n)));
  record.set("footprint_bytes", Value(static_cast<int64_t>(footprint)));
  return true;
}

/// --output-dir: each output's logical elements, raw, as DIR/NAME.bin.
bool DeviceRun::writeOutputs(const std::vector<std::vector<unsigned char>> &outputs) {
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ParamDesc &p = paramOf(launchInfo.tensors[i]);
    if (!p.isOutput())
      continue;
    std::string path = ctx.options.outputDir + "/" + p.name + ".bin";
    FILE *f = std::fopen(path.c_str(), "wb");
    bool ok = f && std::fwrite(outputs[i].data(), 1, outputs[i].size(), f) == outputs[i].size();
    if (f)
      ok &= std::fclose(f) == 0;
    if (!ok) {
      error = "cannot write '" + path + "'";
      return false;
    }
  }
  return true;
}

RunStatus DeviceRun::run() {
  // Everything that is the command line's fault is refused before the GPU is touched (bad
  // arguments, not no_device, on a machine without one).
  if (!ctx.options.outputDir.empty()) {
    struct stat st;
    if (stat(ctx.options.outputDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        access(ctx.options.outputDir.c_str(), W_OK) != 0) {
      error = "--output-dir '" + ctx.options.outputDir + "': not a writable folder";
      return RunStatus::BadArguments;
    }
  }
  // Seeded inputs: the same data for the candidate and the reference.
  hostInputs.resize(launchInfo.tensors.size());
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ResolvedTensor &t = launchInfo.tensors[i];
    if (!paramOf(t).isInput())
      continue;
    auto file = ctx.options.inputFiles.find(paramOf(t).name);
    if (file == ctx.options.inputFiles.end()) {
      hostInputs[i].resize(bytesOf(t));
      fillRandom(hostInputs[i].data(), paramOf(t).dtype,
                 static_cast<size_t>(t.spanElements), ctx.options.seed,
                 t.paramIndex);
      continue;
    }
    // Given data: exactly the tensor's buffer, raw little-endian elements.
    std::string contents;
    if (!readFile(file->second, contents, error))
      return RunStatus::BadArguments;
    if (contents.size() != bytesOf(t)) {
      error = "input '" + paramOf(t).name + "' from '" + file->second + "' has " +
              std::to_string(contents.size()) + " bytes, expected " +
              std::to_string(bytesOf(t));
      return RunStatus::BadArguments;
    }
    hostInputs[i].assign(contents.begin(), contents.end());
  }

  RunStatus status = setUp();
  if (status != RunStatus::Ok)
    return status;

  BufferSet candidate;
  if (!initBuffers(candidate))
    return RunStatus::LaunchFailure;
  KernelArgs args;
  if (!makeArgs(candidate, args) || !launchCandidate(args.finish(), "cuLaunchKernel (candidate)") ||
      !synchronize("candidate kernel execution"))
    return RunStatus::LaunchFailure;

  // Inputs must be bit-identical; outputs are fetched for the comparison.
  std::vector<std::vector<unsigned char>> outputs(launchInfo.tensors.size());
  Array inputsModified;
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ResolvedTensor &t = launchInfo.tensors[i];
    const ParamDesc &p = paramOf(t);
    if (p.isOutput()) {
      if (!download(t, candidate[i], outputs[i]))
        return RunStatus::LaunchFailure;
      continue;
    }
    std::vector<unsigned char> raw(bytesOf(t));
    if (!raw.empty() &&
        !check(driver.cuMemcpyDtoH(raw.data(), candidate[i], raw.size()),
               "cuMemcpyDtoH"))
      return RunStatus::LaunchFailure;
    if (raw != hostInputs[i])
      inputsModified.push_back(p.name);
  }

  if (!ctx.options.outputDir.empty() && !writeOutputs(outputs))
    return RunStatus::BadArguments;

  std::vector<std::vector<unsigned char>> refOutputs;
  uint64_t checkerBad = 0;
  bool haveIntegerOutput = false;
  for (const ResolvedTensor &t : launchInfo.tensors)
    haveIntegerOutput |= paramOf(t).isOutput() && !isFloatType(paramOf(t).dtype);
  bool useChecker = checkFunction && haveIntegerOutput;
  if (refFunction && !runReference(refOutputs))
    return RunStatus::LaunchFailure;
  if (useChecker && !runChecker(candidate, checkerBad))
    return RunStatus::LaunchFailure;
  record.set("ref_check", Value(useChecker));

  bool allPass = inputsModified.empty();
  std::vector<std::string> problems; // For the error message.
  Array outputList;
  for (size_t i = 0; i < launchInfo.tensors.size(); ++i) {
    const ResolvedTensor &t = launchInfo.tensors[i];
    const ParamDesc &p = paramOf(t);
    if (!p.isOutput())
      continue;
    const void *ref = refFunction ? refOutputs[i].data() : nullptr;
    OutputStats stats =
        compareOutput(outputs[i].data(), ref, p.dtype,
                      static_cast<size_t>(t.elements), p.access == Access::Write);
    const char *checkedBy = !ref ? "none" : isFloatType(p.dtype) ? "rel_l2" : "exact";
    if (ref && useChecker && !isFloatType(p.dtype)) {
      stats.mismatches = static_cast<int64_t>(checkerBad);
      checkedBy = "ref_check";
    }
    bool pass = outputPasses(stats, p.dtype, ctx.options.rtol);
    allPass &= pass;
    if (!pass)
      problems.push_back("output '" + p.name + "': " +
                         describeFailure(stats, p.dtype, ctx.options.rtol) +
                         " (" + checkedBy + ")");
    outputList.push_back(Object{
        {"name", Value(p.name)},
        {"dtype", Value(dtypeName(p.dtype))},
        {"access", Value(accessName(p.access))},
        {"elements", Value(stats.elements)},
        {"rel_err", ref ? Value(stats.relErr) : Value(nullptr)},
        {"max_abs_err", ref ? Value(stats.maxAbsErr) : Value(nullptr)},
        {"nonfinite", Value(stats.nonfinite)},
        {"unwritten", Value(stats.unwritten)},
        {"mismatches", Value(stats.mismatches)},
        {"checked_by", Value(checkedBy)},
        {"pass", Value(pass)},
    });
  }
  record.set("outputs", std::move(outputList));
  record.set("inputs_modified", std::move(inputsModified));

  if (!ctx.options.noTime && !time(candidate))
    return RunStatus::LaunchFailure;
  if (allPass)
    return RunStatus::Ok;
  for (const Value &name : *record.find("inputs_modified")->getAsArray())
    problems.push_back("input '" + name.getAsString()->str() + "' modified");
  error = "wrong result:";
  for (size_t i = 0; i < problems.size(); ++i)
    error += (i ? "; " : " ") + problems[i];
  return RunStatus::WrongResult;
}

} // namespace

RunStatus cake::run::runOnDevice(const RunContext &context, Record &record,
                                 std::string &error) {
  DeviceRun run(context, record, error);
  return run.run();
}
