//===- ManifestWriter.cpp - Writing a kernel manifest ---------------------===//
//
// The compiler's side of docs/Manifest.md: the struct the reader fills, written
// back as JSON. Keys come out sorted (llvm::json's printer), so the text is
// stable whatever order the fields are filled in.
//
//===----------------------------------------------------------------------===//

#include "Cake/ABI/Manifest.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace cake::abi;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

Array dims(const std::array<int64_t, 3> &values) { return Array(values); }

Array expressions(const std::vector<Expr> &list) {
  Array out;
  for (const Expr &expr : list)
    out.push_back(expr.text());
  return out;
}

Value paramJson(const ParamDesc &param) {
  Object out{
      {"name", param.name}, {"kind", paramKindName(param.kind)}, {"dtype", dtypeName(param.dtype)}};
  switch (param.kind) {
  case ParamKind::Tma:
    out["tensor"] = param.tensorName;
    out["box"] = Array(param.box);
    out["swizzle"] = param.swizzle;
    break;
  case ParamKind::Tensor:
    out["shape"] = expressions(param.shape);
    // No strides means row-major; a rank-0 tensor states its empty list.
    if (!param.strides.empty() || param.shape.empty())
      out["strides"] = expressions(param.strides);
    out["access"] = accessName(param.access);
    break;
  case ParamKind::Scalar:
  case ParamKind::Symbol:
    break;
  }
  return std::move(out);
}

Value hangDebugJson(const KernelDesc &kernel) {
  Array sites;
  for (const HangSite &site : kernel.hangSites)
    sites.push_back(Object{{"id", site.id},
                           {"op", site.op},
                           {"loc", site.loc},
                           {"role", site.role.empty() ? Value(nullptr) : Value(site.role)}});
  return Object{{"timeout_ms", kernel.hangTimeoutMs}, {"sites", std::move(sites)}};
}

Value kernelJson(const KernelDesc &kernel) {
  Array params;
  for (const ParamDesc &param : kernel.params)
    params.push_back(paramJson(param));
  Object out{{"entry", kernel.entry},
             {"target", kernel.target},
             {"block", dims(kernel.block)},
             {"cluster", dims(kernel.cluster)},
             {"dynamic_shared_bytes", kernel.dynamicSharedBytes},
             {"static_shared_bytes", kernel.staticSharedBytes},
             {"symbols", Array(kernel.symbols)},
             {"grid", Array{kernel.grid[0].text(), kernel.grid[1].text(), kernel.grid[2].text()}},
             {"constraints", expressions(kernel.constraints)},
             {"params", std::move(params)}};
  if (kernel.hangTimeoutMs > 0 || !kernel.hangSites.empty())
    out["hang_debug"] = hangDebugJson(kernel);
  // Written only when it is not the default, so 64-bit manifests stay as they were.
  if (kernel.indexBits != 64)
    out["index_bits"] = kernel.indexBits;
  if (kernel.programmaticLaunch)
    out["programmatic_launch"] = true;
  return std::move(out);
}

} // namespace

std::string cake::abi::writeManifest(const Manifest &manifest) {
  Array kernels;
  for (const KernelDesc &kernel : manifest.kernels)
    kernels.push_back(kernelJson(kernel));
  Value doc = Object{{"cake_manifest_version", kManifestVersion}, {"kernels", std::move(kernels)}};
  return llvm::formatv("{0:2}\n", doc).str();
}
