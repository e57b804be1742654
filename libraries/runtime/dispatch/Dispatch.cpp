//===- Dispatch.cpp - A CAKE kernel library's host dispatcher (C ABI) ------===//
//
// Routes a KMeans shape to a kernel and launches it through the CUDA driver API. The library's
// facts (variants, their manifest expressions compiled to C++, the routing table) come from
// LibraryTable.inc, which `cake library export` generates from library.json; this file is the
// same for every library. The routing rule is route.py's, step for step, so both give the same
// answer (a test checks every shape of the grid). The driver is loaded with dlopen on the first
// launch: routing works on a machine without one.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace {

/// What the host does before a launch (route.py's STAGINGS, library.json's "staging"): nothing
/// (x, c and |c|^2 as given, the user's D), x and c in rows zero-padded to dAlign, or that and
/// |c|^2 in rows of pitch KP (16-byte aligned starts, for TMA).
enum Staging { AsIs = 0, Rows = 1, RowsAndCsq = 2 };
enum Symbol { SB = 0, SN, SK, SD, SKP, SBKP, SBND, SBKD, NumSymbols };
/// TBest: a split-K kernel's merged argmins (families/tma.py's split_k), a workspace of B * N
/// int64 kept filled with ones between calls (the finish kernel fills it again).
enum Tensor { TX = 0, TC, TCsq, TIdx, TBest, NumTensors };
enum ParamKind { PTensor = 0, PTma = 1, PSymbol = 2 };

using Expr = int64_t (*)(const int64_t *);

struct Param {
  int kind;
  int index;       // PTensor/PTma: the tensor (Tensor); PSymbol: the symbol (Symbol)
  int tmaDtype;    // CUtensorMapDataType of a PTma
  int rank;
  Expr shape[5];   // PTma: the described tensor's shape and strides (elements, outermost first)
  Expr strides[5];
  unsigned box[5];
  int swizzle;     // CUtensorMapSwizzle
  int elementBytes;
};

struct Variant {
  const char *name;
  int family;      // a label (index into the library's sorted family names)
  int staging;     // Staging
  int dtype;       // 0 float16, 1 bfloat16, 2 float32
  int64_t maxD;    // -1: any D
  int dAlign;
  int config;      // index into kConfigs (sorted by name: route.py's tie-break)
  bool (*legal)(const int64_t *);
  Expr grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  const Param *params;
  int numParams;
  bool programmaticLaunch; // its manifest's programmatic_launch (docs/Manifest.md)
};

/// The staging kernel of a dtype, one launch for the three staged tensors: xdst[r, :] =
/// xsrc[r, :D] then zeros up to DP (RX rows), the same for c (RC rows), qdst[b, :K] = qsrc[b, :]
/// (QB rows at pitch KP). A segment of 0 rows is skipped: every access of the kernel sits under
/// `element < rows * pitch` (the manifest's generic "RX >= 1" is stricter than the kernel).
enum PadRole { PadXSrc = 0, PadXDst, PadCSrc, PadCDst, PadQSrc, PadQDst,
               PadRX, PadRC, PadD, PadDP, PadQB, PadK, PadKP, NumPadRoles };
struct PadKernel {
  const char *name; // nullptr: the library has none for this dtype
  unsigned block;
  int64_t perBlock; // elements covered by one block
  int roles[NumPadRoles]; // PadRole of each kernel parameter, in the manifest's order
  bool (*legal)(const int64_t *values); // its manifest's constraints, over PadRole values
  bool programmaticLaunch;
};

/// A helper kernel with a one-dimensional grid of ceildiv(elements, perBlock) blocks: the split-K
/// finish (families/finish.py: parameters best, idx, BN) and the |c|^2 kernel of each dtype
/// (families/csq.py: c [R, D], q [R], R, D; elements are rows).
struct HelperKernel {
  const char *name; // nullptr: the library has none (no split-K variant; c_sq then required)
  unsigned block;
  int64_t perBlock;
  bool programmaticLaunch;
};

/// A |c|^2 kernel and the widest D it serves (-1: any); kCsq lists a dtype's narrowest first.
struct CsqKernel {
  int64_t maxD;
  HelperKernel kernel;
};

struct Point {
  int dtype;
  int64_t B, N, D, K;
  const double *ms; // per config, NAN = not measured
};

int64_t cakeCeildiv(int64_t a, int64_t b) { return a / b + ((a % b != 0) && ((a < 0) == (b < 0))); }
int64_t cakeFloordiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t cakeMod(int64_t a, int64_t b) { int64_t m = a % b; return m < 0 ? m + (b < 0 ? -b : b) : m; }
int64_t cakeMin(int64_t a, int64_t b) { return a < b ? a : b; }
int64_t cakeMax(int64_t a, int64_t b) { return a > b ? a : b; }

#include "LibraryTable.inc"

thread_local std::string lastError;
std::mutex stateMutex;
std::string kernelDir = ".";

int fail(const std::string &message, int code) {
  lastError = message;
  return code;
}

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

void launchSizes(const Variant &v, int64_t B, int64_t N, int64_t D, int64_t K, int64_t *s) {
  s[SB] = B; s[SN] = N; s[SK] = K; s[SD] = v.staging == AsIs ? D : roundUp(D, v.dAlign);
  s[SKP] = 0; s[SBKP] = 0;
  if (v.staging == RowsAndCsq) {
    s[SKP] = (B == 1 || K % 4 == 0) ? K : roundUp(K, 4);
    s[SBKP] = B * s[SKP];
  }
  s[SBND] = B * N * s[SD]; // x and c as flat arrays (cpw, tcd's `fl` configurations)
  s[SBKD] = B * K * s[SD];
}

double feature(int64_t v) { return std::log2(static_cast<double>(v < 1 ? 1 : v)); }

const char *kDtypeNames[] = {"float16", "bfloat16", "float32"};

/// route.py's Router._route: legal variants, then the configuration with the lowest weighted mean log
/// relative time over the nearest measured points of the dtype and its kin. Returns the variant or -1.
/// With `ranked`: also route.py's Router.candidates, up to `count` variants best-ranked first (the
/// routed one first; each configuration's preferred twin; a shape of the table: the routed one).
int routeUncached(int64_t B, int64_t N, int64_t D, int64_t K, int dtype, int64_t *sizes,
                  std::vector<int> *ranked = nullptr, int count = 1) {
  if (B < 1 || N < 1 || D < 1 || K < 1)
    return fail("sizes must be integers >= 1 (B=" + std::to_string(B) + " N=" + std::to_string(N) +
                " D=" + std::to_string(D) + " K=" + std::to_string(K) + ")", -1);
  if (dtype < 0 || dtype > 2)
    return fail("dtype " + std::to_string(dtype) + ": expected 0 (float16), 1 (bfloat16) or 2 (float32)", -1);
  for (const auto &[name, rows] : {std::pair<const char *, int64_t>{"x", N}, {"c", K}}) {
    int64_t count; // route.py's MAX_ELEMENTS (2^62): D padded to its class must not overflow int64
    if (__builtin_mul_overflow(B, rows, &count) || __builtin_mul_overflow(count, D, &count) ||
        count > (int64_t(1) << 62))
      return fail("B=" + std::to_string(B) + " N=" + std::to_string(N) + " D=" + std::to_string(D) +
                  " K=" + std::to_string(K) + ": " + name +
                  " would hold more elements than the kernels address (2^62)", -1);
  }
  std::vector<int> legal;
  int64_t widest = 0;
  std::vector<int64_t> least(kNumConfigs, -1); // per configuration: its smallest D class covering D
  bool served = false;
  for (int i = 0; i < kNumVariants; ++i) {
    const Variant &v = kVariants[i];
    if (v.dtype != dtype)
      continue;
    served = true;
    widest = v.maxD < 0 ? INT64_MAX : std::max(widest, v.maxD);
    if (v.maxD >= 0 && roundUp(D, v.dAlign) > v.maxD)
      continue;
    int64_t s[NumSymbols];
    launchSizes(v, B, N, D, K, s);
    if (!v.legal(s))
      continue;
    legal.push_back(i);
    if (v.maxD >= 0 && (least[v.config] < 0 || v.maxD < least[v.config]))
      least[v.config] = v.maxD;
  }
  if (!served)
    return fail(std::string("dtype ") + kDtypeNames[dtype] + ": this library has no kernel for it", -1);
  if (legal.empty())
    return fail("B=" + std::to_string(B) + " N=" + std::to_string(N) + " D=" + std::to_string(D) +
                " K=" + std::to_string(K) + " dtype=" + kDtypeNames[dtype] +
                ": no kernel serves it (the widest kernel takes D <= " + std::to_string(widest) + ")", -1);
  legal.erase(std::remove_if(legal.begin(), legal.end(), [&](int i) {
                return kVariants[i].maxD >= 0 && kVariants[i].maxD != least[kVariants[i].config];
              }), legal.end());
  std::vector<int> byConfig(kNumConfigs, -1);
  for (int i : legal)
    byConfig[kVariants[i].config] = i;

  const double q[4] = {feature(B), feature(N), feature(K), feature(D)};
  std::vector<std::pair<double, int>> near;
  for (int p = 0; p < kNumPoints; ++p) {
    const Point &pt = kPoints[p];
    const double kin = kDtypeDistance[dtype][pt.dtype]; // route.py's dtype_distance
    if (kin < 0)
      continue;
    const double f[4] = {feature(pt.B), feature(pt.N), feature(pt.K), feature(pt.D)};
    double d = kin;
    for (int j = 0; j < 4; ++j)
      d += (f[j] - q[j]) * (f[j] - q[j]);
    near.emplace_back(d, p);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  // A measured shape takes its own fastest legal configuration (route.py does the same).
  const bool exact = !near.empty() && near.front().first == 0.0;
  if (exact)
    near.resize(1);
  else if (static_cast<int>(near.size()) > kNeighbours)
    near.resize(kNeighbours);
  std::vector<double> score(kNumConfigs, 0.0), seen(kNumConfigs, 0.0);
  // Outside the table (route.py's _route): per width group, the widest legal 64-bit configuration
  // that is judged outside its own points (not a twin, not table-only).
  std::vector<int> pick(kNumWidthGroups, -1);
  if (!exact)
    for (int c = 0; c < kNumConfigs; ++c)
      if (byConfig[c] >= 0 && !kConfigOwnPointsOnly[c]) {
        int &p = pick[kConfigGroup[c]];
        if (p < 0 || kConfigWidth[c] > kConfigWidth[p])
          p = c;
      }
  for (const auto &n : near) {
    const double *ms = kPoints[n.second].ms;
    double best = INFINITY;
    for (int c = 0; c < kNumConfigs; ++c)
      if (!std::isnan(ms[c]))
        best = std::min(best, ms[c]);
    const double weight = 1.0 / (n.first + kDistanceSoftening);
    if (exact) { // the shape's own fastest legal configuration
      for (int c = 0; c < kNumConfigs; ++c)
        if (!std::isnan(ms[c]) && byConfig[c] >= 0) {
          score[c] += weight * std::log(ms[c] / best);
          seen[c] += weight;
        }
      continue;
    }
    // route.py's _representatives: the member of the widest width not above the pick's, else the
    // narrowest, slowed by kWidthHalvingCost per halving.
    std::vector<int> below(kNumWidthGroups, -1), above(kNumWidthGroups, -1);
    for (int c = 0; c < kNumConfigs; ++c) {
      const int g = kConfigGroup[c];
      if (std::isnan(ms[c]) || pick[g] < 0 || kConfigOwnPointsOnly[c])
        continue;
      if (kConfigWidth[c] <= kConfigWidth[pick[g]]) {
        if (below[g] < 0 || kConfigWidth[c] > kConfigWidth[below[g]])
          below[g] = c;
      } else if (above[g] < 0 || kConfigWidth[c] < kConfigWidth[above[g]]) {
        above[g] = c;
      }
    }
    for (int g = 0; g < kNumWidthGroups; ++g) {
      double t;
      if (below[g] >= 0)
        t = ms[below[g]];
      else if (above[g] >= 0)
        t = ms[above[g]] *
            std::pow(kWidthHalvingCost, std::log2(static_cast<double>(kConfigWidth[above[g]]) /
                                                  std::max(kConfigWidth[pick[g]], 1)));
      else
        continue;
      score[pick[g]] += weight * std::log(t / best);
      seen[pick[g]] += weight;
    }
  }
  int chosen = -1;
  for (int c = 0; c < kNumConfigs; ++c)
    if (seen[c] > 0 && (chosen < 0 || score[c] / seen[c] < score[chosen] / seen[chosen]))
      chosen = c;
  if (chosen < 0)
    chosen = kDefaultConfig >= 0 && byConfig[kDefaultConfig] >= 0 ? kDefaultConfig
                                                                   : kSmallDefaultConfig;
  // route.py's twin rule: the chosen configuration's 32-bit twin where legal and faster.
  auto twin = [&](int c) {
    return !exact && kPreferredTwin[c] >= 0 && byConfig[kPreferredTwin[c]] >= 0 ? kPreferredTwin[c] : c;
  };
  if (chosen >= 0)
    chosen = twin(chosen);
  int variant = chosen >= 0 ? byConfig[chosen] : -1;
  if (variant < 0)
    return fail("no default kernel serves the shape", -1);
  launchSizes(kVariants[variant], B, N, D, K, sizes);
  if (ranked) {
    ranked->assign(1, variant);
    std::vector<int> order; // a shape of the table: its own choice alone
    for (int c = 0; c < kNumConfigs; ++c)
      if (!exact && seen[c] > 0)
        order.push_back(c);
    // route.py sorts by (relative time, configuration name); configurations are indexed by name.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return score[a] / seen[a] < score[b] / seen[b]; });
    for (int c : order) {
      if (static_cast<int>(ranked->size()) >= count)
        break;
      int v = byConfig[twin(c)];
      if (v >= 0 && std::find(ranked->begin(), ranked->end(), v) == ranked->end())
        ranked->push_back(v);
    }
  }
  return variant;
}

std::map<std::tuple<int64_t, int64_t, int64_t, int64_t, int>, std::pair<int, std::vector<int64_t>>> routes;

struct Loaded {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};
cake::run::CudaDriver driver;
bool driverLoaded = false;
std::map<std::vector<uint64_t>, CUdeviceptr> tensorMaps; // (ctx, variant, pointers, sizes)
std::map<std::vector<uint64_t>, CUdeviceptr> workspaces; // (ctx, what, bytes)

bool check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  lastError = driver.describe(r, what);
  return false;
}

bool ensureDriver() {
  if (driverLoaded)
    return true;
  std::string error;
  if (!driver.load(error) || !driver.cuTensorMapEncodeTiled || !driver.cuMemcpy2DAsync ||
      !driver.cuCtxGetCurrent) {
    lastError = error.empty() ? "the CUDA driver lacks cuTensorMapEncodeTiled, cuMemcpy2DAsync or "
                                "cuCtxGetCurrent (CUDA 12 or newer is needed)"
                              : error;
    return false;
  }
  driverLoaded = true;
  return true;
}

/// Launches `f`; a kernel whose manifest allows it gets programmatic stream serialization, so it
/// may start while the stream's previous kernel finishes (it waits for it before touching global
/// memory). CAKE_PROGRAMMATIC_LAUNCH=0 (or cake_library_set_programmatic_launch(0)) turns that
/// off, for comparisons.
std::atomic<bool> programmaticLaunchAllowed{[] {
  const char *env = std::getenv("CAKE_PROGRAMMATIC_LAUNCH");
  return !(env && std::strcmp(env, "0") == 0);
}()};

bool launchKernel(CUfunction f, const unsigned grid[3], const unsigned block[3],
                  unsigned sharedBytes, CUstream stream, void **args, bool programmatic,
                  const char *what) {
  if (!programmatic || !programmaticLaunchAllowed.load(std::memory_order_relaxed) ||
      !driver.cuLaunchKernelEx)
    return check(driver.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                       sharedBytes, stream, args, nullptr),
                 what);
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attribute.value.programmaticStreamSerializationAllowed = 1;
  return check(driver.launchEx(f, grid, block, sharedBytes, stream, args, &attribute, 1), what);
}

std::map<std::pair<CUcontext, std::string>, Loaded> loaded;

/// True when `stream` is being captured into a CUDA graph: then nothing may be allocated or
/// uploaded (the call would fail inside the driver or capture a copy of stale host memory).
bool capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return driver.cuStreamIsCapturing && driver.cuStreamIsCapturing(stream, &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

int failCapturing(const char *what) {
  return fail(std::string("kmeans_assign: the first call for these tensors needs ") + what +
                  ", which cannot happen during CUDA graph capture: make the same call once "
                  "before capturing",
              -2);
}

CUfunction function(CUcontext ctx, const char *name, unsigned sharedBytes) {
  Loaded &l = loaded[{ctx, name}];
  if (l.function)
    return l.function;
  std::string path = kernelDir + "/" + name + ".cubin";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    lastError = "cannot read " + path;
    return nullptr;
  }
  std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!check(driver.cuModuleLoadData(&l.module, image.data()), "cuModuleLoadData") ||
      !check(driver.cuModuleGetFunction(&l.function, l.module, name), "cuModuleGetFunction"))
    return nullptr;
  if (sharedBytes > 48 * 1024 &&
      !check(driver.cuFuncSetAttribute(l.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       static_cast<int>(sharedBytes)),
             "cuFuncSetAttribute"))
    return nullptr;
  return l.function;
}

/// A device buffer filled with the byte `fill` (zeros unless said), kept per (context, role, rows,
/// used width, row bytes): its address is stable from call to call, so tensor maps stay cached
/// and the whole call can be captured in a CUDA graph; its layout is one shape's, so padding
/// zeros stay zeros.
CUdeviceptr workspace(CUcontext ctx, uint64_t role, uint64_t rows, uint64_t width,
                      uint64_t rowBytes, CUstream stream, unsigned char fill = 0) {
  std::vector<uint64_t> key = {reinterpret_cast<uint64_t>(ctx), role, rows, width, rowBytes};
  size_t bytes = rows * rowBytes;
  auto it = workspaces.find(key);
  if (it != workspaces.end())
    return it->second;
  if (capturing(stream)) {
    failCapturing("a workspace");
    return 0;
  }
  CUdeviceptr p = 0;
  if (!check(driver.cuMemAlloc(&p, bytes), "cuMemAlloc (workspace)") ||
      !check(driver.cuMemsetD8(p, fill, bytes), "cuMemsetD8 (workspace)"))
    return 0;
  workspaces[key] = p;
  return p;
}

bool copyRows(CUdeviceptr dst, size_t dstPitch, CUdeviceptr src, size_t srcPitch, size_t width,
              size_t rows, CUstream stream) {
  CUDA_MEMCPY2D m;
  std::memset(&m, 0, sizeof(m));
  m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  m.srcDevice = src;
  m.srcPitch = srcPitch;
  m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  m.dstDevice = dst;
  m.dstPitch = dstPitch;
  m.WidthInBytes = width;
  m.Height = rows;
  return check(driver.cuMemcpy2DAsync(&m, stream), "cuMemcpy2DAsync (staging)");
}

/// Launches one-dimensional kernel `k` (the staging, split-K finish or |c|^2 kernel) over
/// `elements` (its blocks must fit a grid's x) with the parameters `values` (8 bytes each, in
/// the manifest's order).
template <size_t N>
bool launchHelper(CUcontext ctx, const HelperKernel &k, int64_t elements,
                  const uint64_t (&values)[N], CUstream stream, const char *what) {
  CUfunction f = function(ctx, k.name, 0);
  if (!f)
    return false;
  uint64_t storage[N];
  void *args[N];
  for (size_t i = 0; i < N; ++i) {
    storage[i] = values[i];
    args[i] = &storage[i];
  }
  const unsigned grid[3] = {unsigned((elements + k.perBlock - 1) / k.perBlock), 1, 1},
                 block[3] = {k.block, 1, 1};
  return launchKernel(f, grid, block, 0, stream, args, k.programmaticLaunch, what);
}

/// One staged tensor: dst [rows, dstPitch] <- src [rows, width] (rows = 0: not staged).
struct Segment {
  CUdeviceptr src = 0, dst = 0;
  int64_t rows = 0;
};

/// Stages x and c (rows zero-padded from D to DP elements of `el` bytes) and |c|^2 (B rows of K
/// floats at pitch KP) in one launch of the library's staging kernel, which writes every
/// element (a reused workspace keeps nothing of an earlier call); without one, cuMemcpy2D per
/// tensor (it moves narrow rows one at a time).
bool stage(CUcontext ctx, int dtype, const Segment &x, const Segment &c, const Segment &q,
           int64_t D, int64_t DP, int64_t K, int64_t KP, size_t el, CUstream stream) {
  uint64_t values[NumPadRoles] = {x.src, x.dst, c.src, c.dst, q.src, q.dst,
                                  uint64_t(x.rows), uint64_t(c.rows), uint64_t(D), uint64_t(DP),
                                  uint64_t(q.rows), uint64_t(K), uint64_t(KP)};
  int64_t sizes[NumPadRoles];
  for (int i = 0; i < NumPadRoles; ++i) // a segment of 0 rows is skipped: check it as 1 row
    sizes[i] = i >= PadRX && values[i] == 0 ? 1 : int64_t(values[i]);
  // The library's staging kernels of the dtype, narrowest index first: the first whose
  // constraints hold (a 32-bit build bounds its offsets below 2^30).
  const PadKernel *chosen = nullptr;
  for (const PadKernel &candidate : kPads[dtype])
    if (!chosen && candidate.name && candidate.legal(sizes))
      chosen = &candidate;
  if (!chosen) // the workspaces are kept per shape: their zero padding is never overwritten
    return (!x.rows || copyRows(x.dst, DP * el, x.src, D * el, D * el, x.rows, stream)) &&
           (!c.rows || copyRows(c.dst, DP * el, c.src, D * el, D * el, c.rows, stream)) &&
           (!q.rows || copyRows(q.dst, KP * 4, q.src, K * 4, K * 4, q.rows, stream));
  const PadKernel &k = *chosen;
  uint64_t ordered[NumPadRoles]; // the manifest's parameter order
  for (int i = 0; i < NumPadRoles; ++i)
    ordered[i] = values[k.roles[i]];
  const HelperKernel launched = {k.name, k.block, k.perBlock, k.programmaticLaunch};
  return launchHelper(ctx, launched, (x.rows + c.rows) * DP + q.rows * KP, ordered, stream,
                      "cuLaunchKernel (staging)");
}

int launch(int index, const int64_t *s, uint64_t x, uint64_t c, uint64_t csq, uint64_t out,
           int64_t B, int64_t N, int64_t D, int64_t K, void *stream);

/// After a split-K launch: idx from `best`, and `best` filled with ones again. If this launch
/// fails, the workspace is forgotten (a fresh one is filled on the next call) so that no later
/// call merges into stale minimums.
int finishSplitK(CUcontext ctx, CUdeviceptr best, uint64_t idx, int64_t elements, CUstream stream) {
  const uint64_t values[3] = {best, idx, uint64_t(elements)};
  if (launchHelper(ctx, kFinish, elements, values, stream, "cuLaunchKernel (split-K finish)"))
    return 0;
  for (auto it = workspaces.begin(); it != workspaces.end(); ++it)
    if (it->second == best) {
      workspaces.erase(it);
      break;
    }
  return -2;
}

/// The |c|^2 kernel of `dtype` for rows of D elements: the narrowest that serves D (few lanes
/// per row at small D, families/csq.py), or nullptr when the library has none (generate.py
/// checks that a dtype with any has one for every D).
const HelperKernel *csqKernel(int dtype, int64_t D) {
  if (dtype < 0 || dtype >= 3)
    return nullptr;
  for (const CsqKernel &k : kCsq[dtype])
    if (k.kernel.name && (k.maxD < 0 || D <= k.maxD))
      return &k.kernel;
  return nullptr;
}

/// Whether the library has the |c|^2 kernels of `dtype` (a call may then pass csq = 0).
bool computesCsq(int dtype) { return csqKernel(dtype, INT64_MAX) != nullptr; }

/// Whether a call lacks a pointer it needs: x, c, out, and csq unless the library computes |c|^2
/// for the dtype (an unknown dtype is refused later, by the router).
bool missingPointer(uint64_t x, uint64_t c, uint64_t csq, uint64_t out, int dtype) {
  return !x || !c || !out || (!csq && !computesCsq(dtype));
}

/// -1 naming the first null device pointer (x, c, csq, else out).
int nullPointer(uint64_t x, uint64_t c, uint64_t csq) {
  return fail(std::string("null device pointer for ") + (!x ? "x" : !c ? "c" : !csq ? "csq" : "out"),
              -1);
}

/// |c|^2 of the rows of c [rows, D] into a workspace kept per shape (a stable address: tensor
/// maps stay cached and a captured graph replays it), on `stream`; 0 on a driver error.
CUdeviceptr squaredNorms(CUcontext ctx, int dtype, uint64_t c, int64_t rows, int64_t D,
                         CUstream stream) {
  const HelperKernel &k = *csqKernel(dtype, D); // the caller checked computesCsq(dtype)
  if ((rows + k.perBlock - 1) / k.perBlock > 0x7FFFFFFF) { // past a grid's x: pass c_sq
    fail("|c|^2 of " + std::to_string(rows) + " centroid rows: more blocks than a grid holds; "
         "pass c_sq", -2);
    return 0;
  }
  CUdeviceptr q = workspace(ctx, 5, rows, 1, 4, stream);
  const uint64_t values[4] = {c, q, uint64_t(rows), uint64_t(D)};
  return q && launchHelper(ctx, k, rows, values, stream, "cuLaunchKernel (|c|^2)") ? q : 0;
}
} // namespace

extern "C" {

const char *cake_library_error(void) { return lastError.c_str(); }

int cake_library_variant_count(void) { return kNumVariants; }

const char *cake_library_variant(int index) {
  return index >= 0 && index < kNumVariants ? kVariants[index].name : nullptr;
}

/// The kernel folder (the cubins); default ".".
void cake_library_set_kernel_dir(const char *dir) {
  std::lock_guard<std::mutex> lock(stateMutex);
  kernelDir = dir ? dir : ".";
}

/// Whether kernels whose manifest allows it are launched with programmatic stream serialization
/// (1, the default unless CAKE_PROGRAMMATIC_LAUNCH=0) or the ordinary way (0).
void cake_library_set_programmatic_launch(int on) { programmaticLaunchAllowed = on != 0; }

/// The variant serving a shape (>= 0) and its launch sizes (B N K D KP BKP BND BKD: `sizes` holds 8), or -1.
int cake_library_route(int64_t B, int64_t N, int64_t D, int64_t K, int dtype, int64_t *sizes) {
  std::lock_guard<std::mutex> lock(stateMutex);
  auto key = std::make_tuple(B, N, D, K, dtype);
  auto it = routes.find(key);
  if (it == routes.end()) {
    int64_t s[NumSymbols] = {0};
    int v = routeUncached(B, N, D, K, dtype, s);
    if (v < 0)
      return -1;
    if (routes.size() > 4096)
      routes.clear();
    it = routes.emplace(key, std::make_pair(v, std::vector<int64_t>(s, s + NumSymbols))).first;
  }
  if (sizes)
    std::copy(it->second.second.begin(), it->second.second.end(), sizes);
  return it->second.first;
}

/// The kernels a first-call autotuner times for a shape (route.py's Router.candidates): up to
/// `count` variant indices in `variants`, best-ranked first, the routed one first. Returns how
/// many (>= 1), or -1 (no kernel serves the shape; cake_library_error() says why).
int cake_library_route_candidates(int64_t B, int64_t N, int64_t D, int64_t K, int dtype, int count,
                                  int *variants) {
  std::lock_guard<std::mutex> lock(stateMutex);
  if (count < 1 || !variants)
    return fail("route_candidates: count must be >= 1 and variants not null", -1);
  int64_t s[NumSymbols] = {0};
  std::vector<int> ranked;
  if (routeUncached(B, N, D, K, dtype, s, &ranked, count) < 0)
    return -1;
  std::copy(ranked.begin(), ranked.end(), variants);
  return static_cast<int>(ranked.size());
}

/// idx[b, n] = argmin_k |x_bn - c_bk|^2 on `stream`. x [B, N, D] and c [B, K, D] of `dtype`,
/// csq [B, K] float32 (= |c|^2; 0: computed here, when the library has the dtype's |c|^2
/// kernel, cake_library_computes_csq), out [B, N] int32, all contiguous device memory of the
/// current context. Returns 0, or -1 (no kernel / bad shape) or -2 (driver error) with
/// cake_library_error() saying why; nothing is launched on an error found before the launch.
int cake_library_kmeans_assign(uint64_t x, uint64_t c, uint64_t csq, uint64_t out, int64_t B,
                               int64_t N, int64_t D, int64_t K, int dtype, void *stream) {
  if (missingPointer(x, c, csq, out, dtype))
    return nullPointer(x, c, csq);
  int64_t s[NumSymbols];
  int index = cake_library_route(B, N, D, K, dtype, s);
  if (index < 0)
    return -1;
  return launch(index, s, x, c, csq, out, B, N, D, K, stream);
}

/// 1 when a call of `dtype` may pass csq = 0 (the library computes |c|^2 for it), else 0.
int cake_library_computes_csq(int dtype) { return computesCsq(dtype) ? 1 : 0; }

/// The index of the variant named `name`, or -1.
int cake_library_variant_index(const char *name) {
  for (int i = 0; name && i < kNumVariants; ++i)
    if (std::strcmp(kVariants[i].name, name) == 0)
      return i;
  return -1;
}

/// cake_library_kmeans_assign with the variant chosen by the caller (tuning measures each
/// candidate through the same host path the dispatcher takes). -1 when the variant does not
/// serve the shape (another dtype, a narrower D class, a constraint that fails).
int cake_library_kmeans_assign_variant(int index, uint64_t x, uint64_t c, uint64_t csq,
                                       uint64_t out, int64_t B, int64_t N, int64_t D, int64_t K,
                                       int dtype, void *stream) {
  if (missingPointer(x, c, csq, out, dtype))
    return nullPointer(x, c, csq);
  if (index < 0 || index >= kNumVariants)
    return fail("variant " + std::to_string(index) + ": no such variant", -1);
  const Variant &v = kVariants[index];
  int64_t s[NumSymbols];
  launchSizes(v, B, N, D, K, s);
  if (B < 1 || N < 1 || D < 1 || K < 1 || v.dtype != dtype ||
      (v.maxD >= 0 && roundUp(D, v.dAlign) > v.maxD) || !v.legal(s))
    return fail(std::string(v.name) + " does not serve B=" + std::to_string(B) + " N=" +
                    std::to_string(N) + " D=" + std::to_string(D) + " K=" + std::to_string(K) +
                    " dtype=" + (dtype >= 0 && dtype <= 2 ? kDtypeNames[dtype] : "?"),
                -1);
  return launch(index, s, x, c, csq, out, B, N, D, K, stream);
}

} // extern "C"

namespace {
/// Stages what the variant needs, encodes its tensor maps and launches it (sizes `s` from
/// launchSizes).
int launch(int index, const int64_t *s, uint64_t x, uint64_t c, uint64_t csq, uint64_t out,
           int64_t B, int64_t N, int64_t D, int64_t K, void *stream) {
  std::lock_guard<std::mutex> lock(stateMutex);
  if (!ensureDriver())
    return -2;
  CUcontext ctx = nullptr;
  if (!check(driver.cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"))
    return -2;
  if (!ctx)
    return fail("no current CUDA context on this thread", -2);
  const Variant &v = kVariants[index];
  CUstream st = static_cast<CUstream>(stream);
  CUfunction f = function(ctx, v.name, v.sharedBytes);
  if (!f)
    return -2;
  if (!csq && !(csq = squaredNorms(ctx, v.dtype, c, B * K, D, st)))
    return -2;
  uint64_t ptr[NumTensors] = {x, c, csq, out, 0};
  bool splitK = false;
  for (int i = 0; i < v.numParams; ++i)
    splitK |= v.params[i].kind == PTensor && v.params[i].index == TBest;
  if (splitK) {
    if (!kFinish.name)
      return fail(std::string(v.name) + ": a split-K kernel but no finish kernel in the library", -2);
    ptr[TBest] = workspace(ctx, 4, B * N, 1, 8, st, 0xFF);
    if (!ptr[TBest])
      return -2;
  }
  {
    size_t el = v.dtype == 2 ? 4 : 2;
    // TMA and 16-byte vector loads need 16-byte row strides and bases: stage what is not. A
    // variant that reads the tensors as they are (AsIs) has s[SD] == D but may still load
    // vectors, so a base that is not 16-byte aligned is copied for it too.
    Segment sx, sc, sq;
    if (s[SD] != D || x % 16) {
      sx = {x, workspace(ctx, 1, B * N, D, s[SD] * el, st), B * N};
      if (!sx.dst)
        return -2;
      ptr[TX] = sx.dst;
    }
    if (s[SD] != D || c % 16) {
      sc = {c, workspace(ctx, 2, B * K, D, s[SD] * el, st), B * K};
      if (!sc.dst)
        return -2;
      ptr[TC] = sc.dst;
    }
    if (v.staging == RowsAndCsq && (s[SKP] != K || csq % 16)) {
      // Entries past K are never read as distances (the kernels mask columns >= K).
      sq = {csq, workspace(ctx, 3, B, K, s[SKP] * 4, st), B};
      if (!sq.dst)
        return -2;
      ptr[TCsq] = sq.dst;
    }
    int64_t kp = s[SKP] > 0 ? s[SKP] : K;
    if ((sx.rows || sc.rows || sq.rows) &&
        !stage(ctx, v.dtype, sx, sc, sq, D, s[SD], K, kp, el, st))
      return -2;
  }
  // Tensor maps: encoded once per (context, variant, described pointers, sizes), kept in device
  // memory. Only the tensors with maps are in the key: a fresh output buffer needs no new map.
  std::vector<uint64_t> key = {reinterpret_cast<uint64_t>(ctx), uint64_t(index)};
  for (int i = 0; i < v.numParams; ++i)
    if (v.params[i].kind == PTma)
      key.push_back(ptr[v.params[i].index]);
  key.insert(key.end(), s, s + NumSymbols);
  CUdeviceptr maps = 0;
  int numMaps = 0;
  for (int i = 0; i < v.numParams; ++i)
    numMaps += v.params[i].kind == PTma;
  if (numMaps) {
    auto it = tensorMaps.find(key);
    if (it != tensorMaps.end()) {
      maps = it->second;
    } else {
      if (capturing(st))
        return failCapturing("tensor maps encoded and uploaded");
      std::vector<CUtensorMap> encoded(numMaps);
      int m = 0;
      for (int i = 0; i < v.numParams; ++i) {
        const Param &p = v.params[i];
        if (p.kind != PTma)
          continue;
        cuuint64_t dims[5], strides[4];
        cuuint32_t box[5], ones[5];
        for (int d = 0; d < p.rank; ++d) { // innermost first
          dims[d] = static_cast<cuuint64_t>(p.shape[p.rank - 1 - d](s));
          box[d] = p.box[p.rank - 1 - d];
          ones[d] = 1;
          if (d + 1 < p.rank)
            strides[d] = static_cast<cuuint64_t>(p.strides[p.rank - 2 - d](s)) * p.elementBytes;
        }
        if (!check(driver.cuTensorMapEncodeTiled(
                       &encoded[m++], static_cast<CUtensorMapDataType>(p.tmaDtype), p.rank,
                       reinterpret_cast<void *>(ptr[p.index]), dims, strides, box, ones,
                       CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(p.swizzle),
                       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                   "cuTensorMapEncodeTiled"))
          return -2;
      }
      if (!check(driver.cuMemAlloc(&maps, sizeof(CUtensorMap) * numMaps), "cuMemAlloc (tensor maps)") ||
          !check(driver.cuMemcpyHtoD(maps, encoded.data(), sizeof(CUtensorMap) * numMaps),
                 "cuMemcpyHtoD (tensor maps)"))
        return -2;
      if (tensorMaps.size() > 256) { // forget, do not free: a captured graph may still use them
        tensorMaps.clear();
      }
      tensorMaps[key] = maps;
    }
  }
  std::vector<uint64_t> storage(v.numParams);
  std::vector<void *> args(v.numParams);
  for (int i = 0, m = 0; i < v.numParams; ++i) {
    const Param &p = v.params[i];
    storage[i] = p.kind == PTensor ? ptr[p.index]
                 : p.kind == PTma  ? maps + sizeof(CUtensorMap) * m++
                                   : static_cast<uint64_t>(s[p.index]);
    args[i] = &storage[i];
  }
  unsigned g[3];
  for (int d = 0; d < 3; ++d) {
    int64_t e = v.grid[d](s);
    if (e <= 0)
      return 0; // an empty grid: nothing to do
    g[d] = static_cast<unsigned>(e);
  }
  if (!launchKernel(f, g, v.block, v.sharedBytes, st, args.data(), v.programmaticLaunch,
                    "cuLaunchKernel"))
    return -2;
  return splitK ? finishSplitK(ctx, ptr[TBest], out, B * N, st) : 0;
}
} // namespace
