//===- Launch.cpp - Resolving a kernel launch for concrete sizes --------===//

#include "Cake/ABI/Manifest.h"

#include <algorithm>
#include <map>

using namespace cake::abi;

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

bool cake::abi::resolveLaunch(const KernelDesc &kernel,
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

bool cake::abi::applyDeclaredRoles(KernelDesc &kernel,
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

bool cake::abi::hasOutput(const KernelDesc &kernel) {
  for (const ParamDesc &p : kernel.params)
    if (p.kind == ParamKind::Tensor && p.isOutput())
      return true;
  return false;
}
