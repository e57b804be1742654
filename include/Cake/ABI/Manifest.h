//===- Manifest.h - The kernel manifest: struct, reader, writer -*- C++ -*-===//
//
// The host ABI's kernel manifest (docs/Manifest.md) as plain structs: the
// compiler fills them and writes them (writeManifest), cake-run and the
// bindings read and validate them (parseManifestText) and resolve a kernel's
// launch (grid, tensor shapes/strides, constraints) for concrete sizes. The
// header is LLVM-free; the sources use llvm::json (statically linked into
// cake-run).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ABI_MANIFEST_H
#define CAKE_ABI_MANIFEST_H

#include "Cake/ABI/DType.h"
#include "Cake/ABI/Expr.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cake::abi {

/// The manifest versions this library understands.
constexpr int64_t kManifestVersion = 1;

enum class ParamKind { Tensor, Scalar, Symbol, Tma };
enum class Access { Read, Write, ReadWrite };

const char *paramKindName(ParamKind kind);
const char *accessName(Access access);

/// One kernel parameter, in ABI order.
struct ParamDesc {
  std::string name;
  ParamKind kind = ParamKind::Tensor;
  DType dtype = DType::F32;
  Access access = Access::Read; ///< Tensors only.
  std::vector<Expr> shape;      ///< Tensors only, in elements.
  std::vector<Expr> strides;    ///< Tensors only, in elements.
  /// TMA descriptors only: the tensor parameter described (name and index in
  /// `params`), the box (outermost first) and the swizzle in bytes (0 = none).
  std::string tensorName;
  size_t tensorParam = 0;
  std::vector<int64_t> box;
  int64_t swizzle = 0;

  bool isInput() const { return access != Access::Write; }
  bool isOutput() const { return access != Access::Read; }
};

/// One kernel of the manifest.
/// A wait the hang-debug lowering bounds (the manifest's hang_debug.sites).
struct HangSite {
  int64_t id = 0;
  std::string op, loc, role; ///< role: empty outside warp roles.
};

struct KernelDesc {
  std::string entry;
  std::string target;
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t dynamicSharedBytes = 0;
  int64_t staticSharedBytes = 0;
  std::vector<std::string> symbols;
  std::array<Expr, 3> grid;
  std::vector<Expr> constraints;
  std::vector<ParamDesc> params;
  /// hang_debug: the bounded waits and their timeout (0 and empty when compiled without it).
  int64_t hangTimeoutMs = 0;
  std::vector<HangSite> hangSites;
  /// Width of `index` in the compiled kernel (index_bits; 64 when absent). With 32 the
  /// constraints bound every tensor's offsets below 2^30.
  int64_t indexBits = 64;
  /// programmatic_launch: the kernel waits for its grid dependencies (griddepcontrol.wait)
  /// before touching global memory, so the host may launch it with programmatic stream
  /// serialization (it starts while the stream's previous kernel finishes).
  bool programmaticLaunch = false;

  bool hasCluster() const {
    return cluster[0] != 1 || cluster[1] != 1 || cluster[2] != 1;
  }
};

struct Manifest {
  int64_t version = 0;
  std::vector<KernelDesc> kernels;
};

/// Parses and validates manifest JSON text into `out`. Errors name the
/// offending field, e.g. "kernels[0].params[2] ('x'): unknown dtype 'f8'".
bool parseManifestText(std::string_view text, Manifest &out,
                       std::string &error);
/// Reads the file at `path` then `parseManifestText`.
bool loadManifestFile(const std::string &path, Manifest &out,
                      std::string &error);

/// The manifest as JSON text (2-space indentation, keys sorted, a final
/// newline): what the compiler writes and `parseManifestText` reads back.
/// Expressions are written as their source text; a tensor's strides are
/// omitted when it has none (row-major).
std::string writeManifest(const Manifest &manifest);

/// Finds kernel `entry`; an empty `entry` selects the only kernel.
const KernelDesc *findKernel(const Manifest &manifest, const std::string &entry,
                             std::string &error);

/// Gives `kernel`'s tensors the roles a task declares: those in `outputs` are
/// written (poisoned, every element must be written), those in `inouts` read
/// and written, every other tensor read only. Fails on a name that is not a
/// tensor parameter or is listed twice. Nothing changes when both are empty.
bool applyDeclaredRoles(KernelDesc &kernel, const std::vector<std::string> &outputs,
                        const std::vector<std::string> &inouts, std::string &error);

/// Whether `kernel` has a tensor it writes (an output to compare).
bool hasOutput(const KernelDesc &kernel);

/// A tensor parameter with evaluated shape and strides.
struct ResolvedTensor {
  size_t paramIndex = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  /// Number of logical elements (product of the shape).
  int64_t elements = 0;
  /// Elements the buffer must hold: 1 + sum((shape[i]-1) * strides[i]), or 0
  /// when the tensor is empty.
  int64_t spanElements = 0;
  /// True when strides are the row-major strides of the shape (the logical
  /// elements are the buffer, in order).
  bool contiguous = true;
};

/// Everything needed to launch a kernel for concrete sizes.
struct ResolvedLaunch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Symbol values in the order of `KernelDesc::symbols`.
  std::vector<int64_t> symbolValues;
  /// One entry per tensor parameter, in parameter order.
  std::vector<ResolvedTensor> tensors;
};

/// Evaluates grid, shapes, strides and constraints of `kernel` for `sizes`.
/// Fails with a one-line reason: a missing or unknown size, a violated
/// constraint ("N >= 1 violated for N=0"), a negative extent or stride, a grid
/// outside the hardware limits, an overflowing buffer size.
bool resolveLaunch(const KernelDesc &kernel, const SymbolMap &sizes,
                   ResolvedLaunch &out, std::string &error);

} // namespace cake::abi

#endif // CAKE_ABI_MANIFEST_H
