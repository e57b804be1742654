//===- Manifest.cpp - Kernel manifest loading and launch resolution -------===//

#include "Cake/Runner/Manifest.h"

#include "Cake/Runner/FileUtil.h"
#include "Cake/Runner/Json.h"

#include <algorithm>
#include <map>

using namespace cake::runner;

const char *cake::runner::paramKindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::Tensor:
    return "tensor";
  case ParamKind::Scalar:
    return "scalar";
  case ParamKind::Symbol:
    return "symbol";
  case ParamKind::Tma:
    return "tma";
  }
  return "?";
}

const char *cake::runner::accessName(Access access) {
  switch (access) {
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "readwrite";
  }
  return "?";
}

namespace {

/// Shared state of one manifest validation: the first error wins.
class ManifestReader {
public:
  explicit ManifestReader(std::string &error) : error(error) {}

  bool fail(const std::string &where, const std::string &msg) {
    error = where.empty() ? msg : where + ": " + msg;
    return false;
  }

  /// Fetches a required member of kind `kind`.
  const JsonValue *require(const JsonValue &obj, const char *key,
                           JsonValue::Kind kind, const std::string &where) {
    const JsonValue *v = obj.find(key);
    if (!v) {
      fail(where, std::string("missing required field '") + key + "'");
      return nullptr;
    }
    if (v->kind() != kind) {
      fail(where, std::string("field '") + key + "' must be a " +
                      jsonKindName(kind) + ", not a " +
                      jsonKindName(v->kind()));
      return nullptr;
    }
    return v;
  }

  bool readString(const JsonValue &obj, const char *key, std::string &out,
                  const std::string &where) {
    const JsonValue *v = require(obj, key, JsonValue::Kind::String, where);
    if (!v)
      return false;
    out = v->getString();
    return true;
  }

  /// Reads an optional non-negative integer member.
  bool readCount(const JsonValue &obj, const char *key, int64_t &out,
                 const std::string &where) {
    const JsonValue *v = obj.find(key);
    if (!v)
      return true;
    if (!v->isInteger() || v->getInteger() < 0)
      return fail(where, std::string("field '") + key +
                             "' must be a non-negative integer");
    out = v->getInteger();
    return true;
  }

  /// Reads a [x, y, z] array of positive integers; absent keeps `out`.
  bool readDims(const JsonValue &obj, const char *key, bool required,
                std::array<int64_t, 3> &out, const std::string &where) {
    const JsonValue *v = obj.find(key);
    if (!v)
      return required ? fail(where, std::string("missing required field '") +
                                        key + "'")
                      : true;
    if (!v->isArray() || v->getArray().size() != 3)
      return fail(where, std::string("field '") + key +
                             "' must be an array of 3 integers");
    for (size_t i = 0; i < 3; ++i) {
      const JsonValue &d = v->getArray()[i];
      if (!d.isInteger() || d.getInteger() < 1 ||
          d.getInteger() > 0x7FFFFFFF)
        return fail(where, std::string("field '") + key +
                               "' must hold positive integers");
      out[i] = d.getInteger();
    }
    return true;
  }

  /// Parses one expression given as a string (or a plain integer).
  bool readExpr(const JsonValue &v, bool constraint, Expr &out,
                const std::string &where) {
    std::string text;
    if (v.isString())
      text = v.getString();
    else if (v.isInteger() && !constraint)
      text = std::to_string(v.getInteger());
    else
      return fail(where, constraint ? "expected a constraint string"
                                    : "expected an expression string");
    std::string exprError;
    bool ok = constraint ? Expr::parseConstraint(text, out, exprError)
                         : Expr::parse(text, out, exprError);
    if (!ok)
      return fail(where, exprError);
    for (const std::string &name : out.symbols())
      if (std::find(symbols->begin(), symbols->end(), name) == symbols->end())
        return fail(where, "unknown symbol '" + name + "' in '" + text +
                               "' (not in 'symbols')");
    return true;
  }

  bool readExprList(const JsonValue &obj, const char *key, bool required,
                    std::vector<Expr> &out, const std::string &where) {
    const JsonValue *v = obj.find(key);
    if (!v)
      return required ? fail(where, std::string("missing required field '") +
                                        key + "'")
                      : true;
    if (!v->isArray())
      return fail(where, std::string("field '") + key + "' must be an array");
    out.resize(v->getArray().size());
    for (size_t i = 0; i < out.size(); ++i)
      if (!readExpr(v->getArray()[i], std::string(key) == "constraints",
                    out[i], where + "." + key + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool readParam(const JsonValue &v, ParamDesc &p, const std::string &where);
  bool readKernel(const JsonValue &v, KernelDesc &k, const std::string &where);
  bool readHangDebug(const JsonValue &v, KernelDesc &k, const std::string &here);
  bool readTma(const JsonValue &v, ParamDesc &p, const std::string &here);
  bool linkTma(KernelDesc &k, const std::string &where);

private:
  std::string &error;
  /// The symbols of the kernel being read.
  const std::vector<std::string> *symbols = nullptr;
};

bool ManifestReader::readParam(const JsonValue &v, ParamDesc &p,
                               const std::string &where) {
  if (!v.isObject())
    return fail(where, "a parameter must be an object");
  if (!readString(v, "name", p.name, where))
    return false;
  std::string here = where + " ('" + p.name + "')";
  std::string kind;
  if (!readString(v, "kind", kind, here))
    return false;
  if (kind == "tensor")
    p.kind = ParamKind::Tensor;
  else if (kind == "scalar")
    p.kind = ParamKind::Scalar;
  else if (kind == "symbol")
    p.kind = ParamKind::Symbol;
  else if (kind == "tma")
    p.kind = ParamKind::Tma;
  else
    return fail(here, "unknown kind '" + kind + "'");

  std::string dtype = "i64";
  if (p.kind != ParamKind::Symbol || v.find("dtype"))
    if (!readString(v, "dtype", dtype, here))
      return false;
  if (!parseDType(dtype, p.dtype))
    return fail(here, "unknown dtype '" + dtype + "'");

  switch (p.kind) {
  case ParamKind::Symbol:
    if (p.dtype != DType::I64)
      return fail(here, "a symbol parameter must have dtype i64");
    return true;
  case ParamKind::Scalar:
    if (p.dtype != DType::I32 && p.dtype != DType::I64 &&
        p.dtype != DType::F32 && p.dtype != DType::F64)
      return fail(here, "scalar dtype '" + dtype +
                            "' is not supported (i32 i64 f32 f64)");
    return true;
  case ParamKind::Tma:
    return readTma(v, p, here);
  case ParamKind::Tensor:
    break;
  }

  std::string access;
  if (!readString(v, "access", access, here))
    return false;
  if (access == "read")
    p.access = Access::Read;
  else if (access == "write")
    p.access = Access::Write;
  else if (access == "readwrite")
    p.access = Access::ReadWrite;
  else
    return fail(here, "unknown access '" + access + "'");
  if (!readExprList(v, "shape", /*required=*/true, p.shape, here) ||
      !readExprList(v, "strides", /*required=*/false, p.strides, here))
    return false;
  if (v.find("strides") && p.strides.size() != p.shape.size())
    return fail(here, "'shape' and 'strides' have different lengths");
  return true;
}

bool ManifestReader::readTma(const JsonValue &v, ParamDesc &p,
                             const std::string &here) {
  if (!readString(v, "tensor", p.tensorName, here))
    return false;
  const JsonValue *box = require(v, "box", JsonValue::Kind::Array, here);
  if (!box)
    return false;
  for (const JsonValue &extent : box->getArray()) {
    if (!extent.isInteger() || extent.getInteger() < 1 ||
        extent.getInteger() > 256)
      return fail(here, "box extents must be integers in [1, 256]");
    p.box.push_back(extent.getInteger());
  }
  if (p.box.empty() || p.box.size() > 5)
    return fail(here, "a TMA box has 1 to 5 extents");
  if (const JsonValue *swizzle = v.find("swizzle")) {
    if (!swizzle->isInteger())
      return fail(here, "field 'swizzle' must be an integer");
    p.swizzle = swizzle->getInteger();
  }
  if (p.swizzle != 0 && p.swizzle != 32 && p.swizzle != 64 && p.swizzle != 128)
    return fail(here, "swizzle must be 0, 32, 64 or 128");
  return true;
}

/// Resolves each TMA descriptor's tensor name to the tensor parameter.
bool ManifestReader::linkTma(KernelDesc &k, const std::string &where) {
  for (ParamDesc &p : k.params) {
    if (p.kind != ParamKind::Tma)
      continue;
    std::string here = where + " ('" + p.name + "')";
    auto it = std::find_if(k.params.begin(), k.params.end(), [&](const ParamDesc &t) {
      return t.kind == ParamKind::Tensor && t.name == p.tensorName;
    });
    if (it == k.params.end())
      return fail(here, "describes '" + p.tensorName + "', which is not a tensor parameter");
    if (it->dtype != p.dtype || it->shape.size() != p.box.size())
      return fail(here, "dtype or rank differs from tensor '" + p.tensorName + "'");
    p.tensorParam = static_cast<size_t>(it - k.params.begin());
  }
  return true;
}

bool ManifestReader::readKernel(const JsonValue &v, KernelDesc &k,
                                const std::string &where) {
  if (!v.isObject())
    return fail(where, "a kernel must be an object");
  if (!readString(v, "entry", k.entry, where))
    return false;
  std::string here = where + " ('" + k.entry + "')";
  if (const JsonValue *target = v.find("target")) {
    if (!target->isString())
      return fail(here, "field 'target' must be a string");
    k.target = target->getString();
  }
  if (!readDims(v, "block", /*required=*/true, k.block, here) ||
      !readDims(v, "cluster", /*required=*/false, k.cluster, here) ||
      !readCount(v, "dynamic_shared_bytes", k.dynamicSharedBytes, here) ||
      !readCount(v, "static_shared_bytes", k.staticSharedBytes, here))
    return false;

  const JsonValue *syms = require(v, "symbols", JsonValue::Kind::Array, here);
  if (!syms)
    return false;
  for (const JsonValue &s : syms->getArray()) {
    if (!s.isString() || s.getString().empty())
      return fail(here, "'symbols' must hold non-empty strings");
    Expr probe;
    std::string probeError;
    if (!Expr::parse(s.getString(), probe, probeError) ||
        probe.symbols() != std::vector<std::string>{s.getString()})
      return fail(here, "invalid symbol name '" + s.getString() + "'");
    if (std::count(k.symbols.begin(), k.symbols.end(), s.getString()))
      return fail(here, "duplicate symbol '" + s.getString() + "'");
    k.symbols.push_back(s.getString());
  }
  symbols = &k.symbols;

  const JsonValue *grid = require(v, "grid", JsonValue::Kind::Array, here);
  if (!grid)
    return false;
  if (grid->getArray().size() != 3)
    return fail(here, "'grid' must have 3 expressions");
  for (size_t i = 0; i < 3; ++i)
    if (!readExpr(grid->getArray()[i], /*constraint=*/false, k.grid[i],
                  here + ".grid[" + std::to_string(i) + "]"))
      return false;
  if (!readExprList(v, "constraints", /*required=*/false, k.constraints, here))
    return false;

  const JsonValue *params = require(v, "params", JsonValue::Kind::Array, here);
  if (!params)
    return false;
  std::vector<std::string> symbolParams;
  for (size_t i = 0; i < params->getArray().size(); ++i) {
    ParamDesc p;
    std::string pWhere = here + ".params[" + std::to_string(i) + "]";
    if (!readParam(params->getArray()[i], p, pWhere))
      return false;
    for (const ParamDesc &prev : k.params)
      if (prev.name == p.name)
        return fail(pWhere, "duplicate parameter name '" + p.name + "'");
    if (p.kind == ParamKind::Symbol)
      symbolParams.push_back(p.name);
    else if (!symbolParams.empty())
      return fail(pWhere, "symbol parameters must come after all others");
    k.params.push_back(std::move(p));
  }
  if (symbolParams != k.symbols)
    return fail(here, "the symbol parameters must be exactly 'symbols', in "
                      "the same order");
  return readHangDebug(v, k, here) && linkTma(k, here);
}

/// The optional hang_debug object: {timeout_ms, sites: [{id, op, loc, role}]}.
bool ManifestReader::readHangDebug(const JsonValue &v, KernelDesc &k,
                                   const std::string &here) {
  const JsonValue *debug = v.find("hang_debug");
  if (!debug)
    return true;
  std::string where = here + ".hang_debug";
  if (!debug->isObject())
    return fail(where, "must be an object");
  if (!readCount(*debug, "timeout_ms", k.hangTimeoutMs, where))
    return false;
  const JsonValue *sites = require(*debug, "sites", JsonValue::Kind::Array, where);
  if (!sites)
    return false;
  for (size_t i = 0; i < sites->getArray().size(); ++i) {
    const JsonValue &s = sites->getArray()[i];
    std::string at = where + ".sites[" + std::to_string(i) + "]";
    HangSite site;
    if (!s.isObject())
      return fail(at, "a site must be an object");
    const JsonValue *id = s.find("id");
    if (!id || !id->isInteger() || id->getInteger() < 0)
      return fail(at, "field 'id' must be a non-negative integer");
    site.id = id->getInteger();
    if (!readString(s, "op", site.op, at) || !readString(s, "loc", site.loc, at))
      return false;
    if (const JsonValue *role = s.find("role"); role && role->isString())
      site.role = role->getString();
    k.hangSites.push_back(std::move(site));
  }
  return true;
}

} // namespace

bool cake::runner::parseManifest(const JsonValue &doc, Manifest &out,
                                 std::string &error) {
  ManifestReader reader(error);
  out = Manifest();
  if (!doc.isObject())
    return reader.fail("", "the manifest must be a JSON object");
  const JsonValue *version = doc.find("cake_manifest_version");
  if (!version)
    return reader.fail("", "missing required field 'cake_manifest_version'");
  if (!version->isInteger() || version->getInteger() != kManifestVersion)
    return reader.fail("", "unsupported cake_manifest_version " +
                               version->toString() + " (this runner reads " +
                               std::to_string(kManifestVersion) + ")");
  out.version = version->getInteger();
  const JsonValue *kernels =
      reader.require(doc, "kernels", JsonValue::Kind::Array, "");
  if (!kernels)
    return false;
  if (kernels->getArray().empty())
    return reader.fail("", "the manifest has no kernels");
  out.kernels.resize(kernels->getArray().size());
  for (size_t i = 0; i < out.kernels.size(); ++i) {
    if (!reader.readKernel(kernels->getArray()[i], out.kernels[i],
                           "kernels[" + std::to_string(i) + "]"))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (out.kernels[j].entry == out.kernels[i].entry)
        return reader.fail("", "duplicate kernel entry '" +
                                   out.kernels[i].entry + "'");
  }
  return true;
}

bool cake::runner::parseManifestText(std::string_view text, Manifest &out,
                                     std::string &error) {
  JsonValue doc;
  if (!parseJson(text, doc, error)) {
    error = "invalid JSON: " + error;
    return false;
  }
  return parseManifest(doc, out, error);
}

bool cake::runner::loadManifestFile(const std::string &path, Manifest &out,
                                    std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  if (!parseManifestText(text, out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

const KernelDesc *cake::runner::findKernel(const Manifest &manifest,
                                           const std::string &entry,
                                           std::string &error) {
  std::string names;
  for (const KernelDesc &k : manifest.kernels) {
    if (k.entry == entry)
      return &k;
    names += (names.empty() ? "" : ", ") + k.entry;
  }
  if (entry.empty() && manifest.kernels.size() == 1)
    return &manifest.kernels.front();
  error = entry.empty() ? "the manifest has several kernels (" + names +
                              "); choose one with --kernel"
                        : "unknown kernel '" + entry + "' (manifest has: " +
                              names + ")";
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Launch resolution
//===----------------------------------------------------------------------===//

namespace {

/// Evaluates `expr`, prefixing errors with `where` and the expression text.
bool evalExpr(const Expr &expr, const SymbolMap &sizes, const std::string &where,
              int64_t &value, std::string &error) {
  std::string evalError;
  if (expr.evaluate(sizes, value, evalError))
    return true;
  error = where + " = " + expr.text() + ": " + evalError;
  return false;
}

/// " for M=3, N=0" for the symbols used by `expr` ("" when it uses none).
std::string describeSymbols(const Expr &expr, const SymbolMap &sizes) {
  std::string out;
  for (const std::string &name : expr.symbols()) {
    auto it = sizes.find(name);
    out += (out.empty() ? " for " : ", ") + name + "=" +
           (it == sizes.end() ? "?" : std::to_string(it->second));
  }
  return out;
}

bool resolveTensor(const ParamDesc &p, size_t index, const SymbolMap &sizes,
                   ResolvedTensor &t, std::string &error) {
  std::string where = "tensor '" + p.name + "'";
  t.paramIndex = index;
  size_t rank = p.shape.size();
  t.shape.resize(rank);
  t.strides.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    std::string dim = where + " shape[" + std::to_string(d) + "]";
    if (!evalExpr(p.shape[d], sizes, dim, t.shape[d], error))
      return false;
    if (t.shape[d] < 0) {
      error = dim + " = " + p.shape[d].text() + " is negative (" +
              std::to_string(t.shape[d]) + ")";
      return false;
    }
  }
  // Row-major strides, used when the manifest gives none and to detect
  // contiguity.
  std::vector<int64_t> rowMajor(rank, 1);
  for (size_t d = rank; d-- > 1;)
    if (__builtin_mul_overflow(rowMajor[d], std::max<int64_t>(t.shape[d], 1),
                               &rowMajor[d - 1])) {
      error = where + ": size overflows 64 bits";
      return false;
    }
  t.contiguous = true;
  for (size_t d = 0; d < rank; ++d) {
    std::string dim = where + " strides[" + std::to_string(d) + "]";
    if (p.strides.empty())
      t.strides[d] = rowMajor[d];
    else if (!evalExpr(p.strides[d], sizes, dim, t.strides[d], error))
      return false;
    if (t.strides[d] < 0) {
      error = dim + " = " + p.strides[d].text() + " is negative (" +
              std::to_string(t.strides[d]) + ")";
      return false;
    }
    if (t.shape[d] > 1 && t.strides[d] != rowMajor[d])
      t.contiguous = false;
  }
  t.elements = 1;
  int64_t lastOffset = 0;
  for (size_t d = 0; d < rank; ++d) {
    int64_t extent;
    if (__builtin_mul_overflow(t.elements, t.shape[d], &t.elements) ||
        (t.shape[d] > 0 &&
         (__builtin_mul_overflow(t.shape[d] - 1, t.strides[d], &extent) ||
          __builtin_add_overflow(lastOffset, extent, &lastOffset)))) {
      error = where + ": size overflows 64 bits";
      return false;
    }
  }
  t.spanElements = t.elements == 0 ? 0 : lastOffset + 1;
  // Keep byte sizes comfortably inside size_t/int64 arithmetic.
  if (t.spanElements > (int64_t(1) << 50) / int64_t(dtypeSize(p.dtype))) {
    error = where + ": buffer of " + std::to_string(t.spanElements) +
            " elements is too large";
    return false;
  }
  return true;
}

} // namespace

bool cake::runner::resolveLaunch(const KernelDesc &kernel,
                                 const SymbolMap &sizes, ResolvedLaunch &out,
                                 std::string &error) {
  out = ResolvedLaunch();
  std::string known;
  for (const std::string &s : kernel.symbols)
    known += (known.empty() ? "" : ", ") + s;
  for (const auto &size : sizes)
    if (!std::count(kernel.symbols.begin(), kernel.symbols.end(), size.first)) {
      error = "unknown size '" + size.first + "' (kernel '" + kernel.entry +
              "' has symbols: " + (known.empty() ? "none" : known) + ")";
      return false;
    }
  for (const std::string &s : kernel.symbols) {
    auto it = sizes.find(s);
    if (it == sizes.end()) {
      error = "missing size for symbol '" + s + "'";
      return false;
    }
    out.symbolValues.push_back(it->second);
  }

  for (const Expr &c : kernel.constraints) {
    int64_t holds;
    if (!evalExpr(c, sizes, "constraint", holds, error))
      return false;
    if (!holds) {
      error = "constraint " + c.text() + " violated" +
              describeSymbols(c, sizes);
      return false;
    }
  }

  static const int64_t kGridLimits[3] = {0x7FFFFFFF, 65535, 65535};
  for (size_t i = 0; i < 3; ++i) {
    std::string where = "grid[" + std::to_string(i) + "]";
    if (!evalExpr(kernel.grid[i], sizes, where, out.grid[i], error))
      return false;
    if (out.grid[i] < 1 || out.grid[i] > kGridLimits[i]) {
      error = where + " = " + kernel.grid[i].text() + " evaluates to " +
              std::to_string(out.grid[i]) +
              describeSymbols(kernel.grid[i], sizes) + " (must be in [1, " +
              std::to_string(kGridLimits[i]) + "])";
      return false;
    }
    if (out.grid[i] % kernel.cluster[i] != 0) {
      error = where + " = " + std::to_string(out.grid[i]) +
              " is not a multiple of the cluster size " +
              std::to_string(kernel.cluster[i]);
      return false;
    }
  }

  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (kernel.params[i].kind != ParamKind::Tensor)
      continue;
    ResolvedTensor t;
    if (!resolveTensor(kernel.params[i], i, sizes, t, error))
      return false;
    out.tensors.push_back(std::move(t));
  }
  return true;
}

bool cake::runner::applyDeclaredRoles(KernelDesc &kernel,
                                      const std::vector<std::string> &outputs,
                                      const std::vector<std::string> &inouts,
                                      std::string &error) {
  if (outputs.empty() && inouts.empty())
    return true;
  std::map<std::string, Access> roles;
  for (const auto &[list, access] : {std::pair(&outputs, Access::Write),
                                     std::pair(&inouts, Access::ReadWrite)}) {
    for (const std::string &name : *list) {
      bool known = false;
      for (const ParamDesc &p : kernel.params)
        known |= p.kind == ParamKind::Tensor && p.name == name;
      if (!known) {
        error = "declared output '" + name + "' is not a tensor parameter of kernel '" +
                kernel.entry + "'";
        return false;
      }
      if (!roles.emplace(name, access).second) {
        error = "tensor '" + name + "' declared twice (--outputs, --inouts)";
        return false;
      }
    }
  }
  for (ParamDesc &p : kernel.params) {
    if (p.kind != ParamKind::Tensor)
      continue;
    auto it = roles.find(p.name);
    p.access = it == roles.end() ? Access::Read : it->second;
  }
  return true;
}

bool cake::runner::hasOutput(const KernelDesc &kernel) {
  for (const ParamDesc &p : kernel.params)
    if (p.kind == ParamKind::Tensor && p.isOutput())
      return true;
  return false;
}
