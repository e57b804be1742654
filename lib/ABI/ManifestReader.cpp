//===- ManifestReader.cpp - Reading and validating a kernel manifest ------===//
//
// The one reader of docs/Manifest.md, shared by cake-run and the bindings. It parses with
// llvm::json (linked statically into cake-run, so the runner still needs no LLVM at run time).
//
//===----------------------------------------------------------------------===//

#include "Cake/ABI/Manifest.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

using namespace cake::abi;

const char *cake::abi::paramKindName(ParamKind kind) {
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

const char *cake::abi::accessName(Access access) {
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

using llvm::json::Value;
using Kind = llvm::json::Value::Kind;

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Boolean:
    return "boolean";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

/// Member `key` of `v` when `v` is an object that has it.
const Value *member(const Value &v, const char *key) {
  const llvm::json::Object *object = v.getAsObject();
  return object ? object->get(key) : nullptr;
}

/// The integer `v` holds exactly (a number with no fraction), if any.
std::optional<int64_t> integer(const Value &v) { return v.getAsInteger(); }

std::string text(const Value &v) { return v.getAsString().value_or("").str(); }

/// llvm::json's "[3:7, byte=20]: Expected , or ]" as "line 3, col 7: expected , or ]".
std::string describeParseError(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  unsigned line = 0, column = 0;
  size_t end = message.find("]: ");
  if (message.size() > 1 && message[0] == '[' && end != std::string::npos &&
      std::sscanf(message.c_str(), "[%u:%u", &line, &column) == 2) {
    std::string rest = message.substr(end + 3);
    if (!rest.empty())
      rest[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(rest[0])));
    return "line " + std::to_string(line) + ", col " + std::to_string(column) + ": " + rest;
  }
  return message;
}

/// Shared state of one manifest validation: the first error wins.
class ManifestReader {
public:
  explicit ManifestReader(std::string &error) : error(error) {}

  bool fail(const std::string &where, const std::string &msg) {
    error = where.empty() ? msg : where + ": " + msg;
    return false;
  }

  /// Fetches a required member of kind `kind`.
  const Value *require(const Value &obj, const char *key, Kind kind, const std::string &where) {
    const Value *v = member(obj, key);
    if (!v) {
      fail(where, std::string("missing required field '") + key + "'");
      return nullptr;
    }
    if (v->kind() != kind) {
      fail(where, std::string("field '") + key + "' must be a " + kindName(kind) + ", not a " +
                      kindName(v->kind()));
      return nullptr;
    }
    return v;
  }

  const llvm::json::Array *requireArray(const Value &obj, const char *key,
                                        const std::string &where) {
    const Value *v = require(obj, key, Kind::Array, where);
    return v ? v->getAsArray() : nullptr;
  }

  bool readString(const Value &obj, const char *key, std::string &out, const std::string &where) {
    const Value *v = require(obj, key, Kind::String, where);
    if (!v)
      return false;
    out = text(*v);
    return true;
  }

  /// Reads an optional non-negative integer member.
  bool readCount(const Value &obj, const char *key, int64_t &out, const std::string &where) {
    const Value *v = member(obj, key);
    if (!v)
      return true;
    if (!integer(*v) || *integer(*v) < 0)
      return fail(where, std::string("field '") + key + "' must be a non-negative integer");
    out = *integer(*v);
    return true;
  }

  /// Reads a [x, y, z] array of positive integers; absent keeps `out`.
  bool readDims(const Value &obj, const char *key, bool required, std::array<int64_t, 3> &out,
                const std::string &where) {
    const Value *v = member(obj, key);
    if (!v)
      return required ? fail(where, std::string("missing required field '") + key + "'") : true;
    const llvm::json::Array *dims = v->getAsArray();
    if (!dims || dims->size() != 3)
      return fail(where, std::string("field '") + key + "' must be an array of 3 integers");
    for (size_t i = 0; i < 3; ++i) {
      std::optional<int64_t> d = integer((*dims)[i]);
      if (!d || *d < 1 || *d > 0x7FFFFFFF)
        return fail(where, std::string("field '") + key + "' must hold positive integers");
      out[i] = *d;
    }
    return true;
  }

  /// Parses one expression given as a string (or a plain integer).
  bool readExpr(const Value &v, bool constraint, Expr &out, const std::string &where) {
    std::string source;
    if (v.getAsString())
      source = text(v);
    else if (integer(v) && !constraint)
      source = std::to_string(*integer(v));
    else
      return fail(where,
                  constraint ? "expected a constraint string" : "expected an expression string");
    std::string exprError;
    bool ok = constraint ? Expr::parseConstraint(source, out, exprError)
                         : Expr::parse(source, out, exprError);
    if (!ok)
      return fail(where, exprError);
    for (const std::string &name : out.symbols())
      if (std::find(symbols->begin(), symbols->end(), name) == symbols->end())
        return fail(where, "unknown symbol '" + name + "' in '" + source + "' (not in 'symbols')");
    return true;
  }

  bool readExprList(const Value &obj, const char *key, bool required, std::vector<Expr> &out,
                    const std::string &where) {
    const Value *v = member(obj, key);
    if (!v)
      return required ? fail(where, std::string("missing required field '") + key + "'") : true;
    const llvm::json::Array *list = v->getAsArray();
    if (!list)
      return fail(where, std::string("field '") + key + "' must be an array");
    out.resize(list->size());
    for (size_t i = 0; i < out.size(); ++i)
      if (!readExpr((*list)[i], std::string(key) == "constraints", out[i],
                    where + "." + key + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool readParam(const Value &v, ParamDesc &p, const std::string &where);
  bool readKernel(const Value &v, KernelDesc &k, const std::string &where);
  bool readHangDebug(const Value &v, KernelDesc &k, const std::string &here);
  bool readIndexBits(const Value &v, KernelDesc &k, const std::string &here);
  bool readProgrammaticLaunch(const Value &v, KernelDesc &k, const std::string &here);
  bool readTma(const Value &v, ParamDesc &p, const std::string &here);
  bool linkTma(KernelDesc &k, const std::string &where);

private:
  std::string &error;
  /// The symbols of the kernel being read.
  const std::vector<std::string> *symbols = nullptr;
};

bool ManifestReader::readParam(const Value &v, ParamDesc &p, const std::string &where) {
  if (!v.getAsObject())
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
  if (p.kind != ParamKind::Symbol || member(v, "dtype"))
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
    if (p.dtype != DType::I32 && p.dtype != DType::I64 && p.dtype != DType::F32 &&
        p.dtype != DType::F64)
      return fail(here, "scalar dtype '" + dtype + "' is not supported (i32 i64 f32 f64)");
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
  if (member(v, "strides") && p.strides.size() != p.shape.size())
    return fail(here, "'shape' and 'strides' have different lengths");
  return true;
}

bool ManifestReader::readTma(const Value &v, ParamDesc &p, const std::string &here) {
  if (!readString(v, "tensor", p.tensorName, here))
    return false;
  const llvm::json::Array *box = requireArray(v, "box", here);
  if (!box)
    return false;
  for (const Value &extent : (*box)) {
    if (!integer(extent) || *integer(extent) < 1 || *integer(extent) > 256)
      return fail(here, "box extents must be integers in [1, 256]");
    p.box.push_back(*integer(extent));
  }
  if (p.box.empty() || p.box.size() > 5)
    return fail(here, "a TMA box has 1 to 5 extents");
  if (const Value *swizzle = member(v, "swizzle")) {
    if (!integer(*swizzle))
      return fail(here, "field 'swizzle' must be an integer");
    p.swizzle = *integer(*swizzle);
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

bool ManifestReader::readKernel(const Value &v, KernelDesc &k, const std::string &where) {
  if (!v.getAsObject())
    return fail(where, "a kernel must be an object");
  if (!readString(v, "entry", k.entry, where))
    return false;
  std::string here = where + " ('" + k.entry + "')";
  if (const Value *target = member(v, "target")) {
    if (!target->getAsString())
      return fail(here, "field 'target' must be a string");
    k.target = text(*target);
  }
  if (!readDims(v, "block", /*required=*/true, k.block, here) ||
      !readDims(v, "cluster", /*required=*/false, k.cluster, here) ||
      !readCount(v, "dynamic_shared_bytes", k.dynamicSharedBytes, here) ||
      !readCount(v, "static_shared_bytes", k.staticSharedBytes, here))
    return false;

  const llvm::json::Array *syms = requireArray(v, "symbols", here);
  if (!syms)
    return false;
  for (const Value &s : (*syms)) {
    if (!s.getAsString() || text(s).empty())
      return fail(here, "'symbols' must hold non-empty strings");
    Expr probe;
    std::string probeError;
    if (!Expr::parse(text(s), probe, probeError) ||
        probe.symbols() != std::vector<std::string>{text(s)})
      return fail(here, "invalid symbol name '" + text(s) + "'");
    if (std::count(k.symbols.begin(), k.symbols.end(), text(s)))
      return fail(here, "duplicate symbol '" + text(s) + "'");
    k.symbols.push_back(text(s));
  }
  symbols = &k.symbols;

  const llvm::json::Array *grid = requireArray(v, "grid", here);
  if (!grid)
    return false;
  if ((*grid).size() != 3)
    return fail(here, "'grid' must have 3 expressions");
  for (size_t i = 0; i < 3; ++i)
    if (!readExpr((*grid)[i], /*constraint=*/false, k.grid[i],
                  here + ".grid[" + std::to_string(i) + "]"))
      return false;
  if (!readExprList(v, "constraints", /*required=*/false, k.constraints, here))
    return false;

  const llvm::json::Array *params = requireArray(v, "params", here);
  if (!params)
    return false;
  std::vector<std::string> symbolParams;
  for (size_t i = 0; i < (*params).size(); ++i) {
    ParamDesc p;
    std::string pWhere = here + ".params[" + std::to_string(i) + "]";
    if (!readParam((*params)[i], p, pWhere))
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
  return readIndexBits(v, k, here) && readProgrammaticLaunch(v, k, here) &&
         readHangDebug(v, k, here) && linkTma(k, here);
}

/// The optional index_bits: 32 or 64 (the default).
bool ManifestReader::readIndexBits(const Value &v, KernelDesc &k, const std::string &here) {
  const Value *bits = member(v, "index_bits");
  if (!bits)
    return true;
  if (!integer(*bits) || (*integer(*bits) != 32 && *integer(*bits) != 64))
    return fail(here, "field 'index_bits' must be 32 or 64");
  k.indexBits = *integer(*bits);
  return true;
}

/// The optional programmatic_launch flag (false when absent).
bool ManifestReader::readProgrammaticLaunch(const Value &v, KernelDesc &k,
                                            const std::string &here) {
  const Value *flag = member(v, "programmatic_launch");
  if (!flag)
    return true;
  if (!flag->getAsBoolean())
    return fail(here, "field 'programmatic_launch' must be a boolean");
  k.programmaticLaunch = *flag->getAsBoolean();
  return true;
}

/// The optional hang_debug object: {timeout_ms, sites: [{id, op, loc, role}]}.
bool ManifestReader::readHangDebug(const Value &v, KernelDesc &k, const std::string &here) {
  const Value *debug = member(v, "hang_debug");
  if (!debug)
    return true;
  std::string where = here + ".hang_debug";
  if (!debug->getAsObject())
    return fail(where, "must be an object");
  if (!readCount(*debug, "timeout_ms", k.hangTimeoutMs, where))
    return false;
  const llvm::json::Array *sites = requireArray(*debug, "sites", where);
  if (!sites)
    return false;
  for (size_t i = 0; i < (*sites).size(); ++i) {
    const Value &s = (*sites)[i];
    std::string at = where + ".sites[" + std::to_string(i) + "]";
    HangSite site;
    if (!s.getAsObject())
      return fail(at, "a site must be an object");
    const Value *id = member(s, "id");
    if (!id || !integer(*id) || *integer(*id) < 0)
      return fail(at, "field 'id' must be a non-negative integer");
    site.id = *integer(*id);
    if (!readString(s, "op", site.op, at) || !readString(s, "loc", site.loc, at))
      return false;
    if (const Value *role = member(s, "role"); role && role->getAsString())
      site.role = text(*role);
    k.hangSites.push_back(std::move(site));
  }
  return true;
}

/// Validates a parsed manifest document into `out`.
bool parseManifest(const Value &doc, Manifest &out, std::string &error) {
  ManifestReader reader(error);
  out = Manifest();
  if (!doc.getAsObject())
    return reader.fail("", "the manifest must be a JSON object");
  const Value *version = member(doc, "cake_manifest_version");
  if (!version)
    return reader.fail("", "missing required field 'cake_manifest_version'");
  if (!integer(*version) || *integer(*version) != kManifestVersion)
    return reader.fail("", "unsupported cake_manifest_version " +
                               llvm::formatv("{0}", *version).str() + " (this runner reads " +
                               std::to_string(kManifestVersion) + ")");
  out.version = *integer(*version);
  const llvm::json::Array *kernels = reader.requireArray(doc, "kernels", "");
  if (!kernels)
    return false;
  if ((*kernels).empty())
    return reader.fail("", "the manifest has no kernels");
  out.kernels.resize((*kernels).size());
  for (size_t i = 0; i < out.kernels.size(); ++i) {
    if (!reader.readKernel((*kernels)[i], out.kernels[i], "kernels[" + std::to_string(i) + "]"))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (out.kernels[j].entry == out.kernels[i].entry)
        return reader.fail("", "duplicate kernel entry '" + out.kernels[i].entry + "'");
  }
  return true;
}

} // namespace

/// Whether `text` nests JSON arrays and objects deeper than `most` (outside strings): llvm::json's
/// recursive parser would overflow the stack (at about 50,000 levels), and a manifest nests 4.
static bool nestsDeeperThan(std::string_view text, int most) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > most)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

bool cake::abi::parseManifestText(std::string_view text, Manifest &out, std::string &error) {
  if (nestsDeeperThan(text, 64)) {
    error = "invalid JSON: nested more than 64 levels deep (a manifest nests 4)";
    return false;
  }
  llvm::Expected<Value> doc = llvm::json::parse(llvm::StringRef(text.data(), text.size()));
  if (!doc) {
    error = "invalid JSON: " + describeParseError(doc.takeError());
    return false;
  }
  return parseManifest(*doc, out, error);
}

bool cake::abi::loadManifestFile(const std::string &path, Manifest &out, std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    error = "cannot read '" + path + "': " + file.getError().message();
    return false;
  }
  llvm::StringRef text = (*file)->getBuffer();
  if (!parseManifestText(std::string_view(text.data(), text.size()), out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

const KernelDesc *cake::abi::findKernel(const Manifest &manifest, const std::string &entry,
                                        std::string &error) {
  std::string names;
  for (const KernelDesc &k : manifest.kernels) {
    if (k.entry == entry)
      return &k;
    names += (names.empty() ? "" : ", ") + k.entry;
  }
  if (entry.empty() && manifest.kernels.size() == 1)
    return &manifest.kernels.front();
  error = entry.empty()
              ? "the manifest has several kernels (" + names + "); choose one with --kernel"
              : "unknown kernel '" + entry + "' (manifest has: " + names + ")";
  return nullptr;
}
