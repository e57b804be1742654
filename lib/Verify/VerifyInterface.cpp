//===- VerifyInterface.cpp - a kernel against its declared interface ------===//
//
// A task declares its kernel's interface (parameters, which are inputs and which outputs); a
// candidate that changes it, never writes an output or writes an input is rejected here, before
// it is compiled. Which op writes which tensor comes from CakeMemoryAccessOpInterface.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/HostNames.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYINTERFACEPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// One declared parameter.
struct DeclaredParam {
  std::string name, kind = "tensor", dtype, role;
  std::optional<std::vector<std::string>> shape;
};

struct DeclaredInterface {
  std::string kernel;
  std::optional<std::vector<std::string>> symbols;
  std::vector<DeclaredParam> params;
};

/// A JSON array of strings or integers, as text ("M", "128").
bool readExtents(const llvm::json::Value *value, std::vector<std::string> &out) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return false;
  for (const llvm::json::Value &entry : *array) {
    if (auto text = entry.getAsString())
      out.push_back(text->str());
    else if (auto number = entry.getAsInteger())
      out.push_back(std::to_string(*number));
    else
      return false;
  }
  return true;
}

/// Parses an interface file; on failure returns the reason.
FailureOr<DeclaredInterface> readInterface(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read interface '" + path.str() + "': " + buffer.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = "interface '" + path.str() + "' is not JSON: " + llvm::toString(json.takeError());
    return failure();
  }
  auto fail = [&](const llvm::Twine &why) {
    error = ("interface '" + path + "': " + why).str();
    return failure();
  };
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return fail("expected an object");
  DeclaredInterface iface;
  if (auto kernel = root->getString("kernel"))
    iface.kernel = kernel->str();
  else
    return fail("expected \"kernel\": the kernel's name");
  if (const llvm::json::Value *symbols = root->get("symbols")) {
    iface.symbols.emplace();
    if (!readExtents(symbols, *iface.symbols))
      return fail("expected \"symbols\" to be a list of names");
  }
  const llvm::json::Array *params = root->getArray("params");
  if (!params)
    return fail("expected \"params\": a list of parameters");
  for (auto [index, value] : llvm::enumerate(*params)) {
    std::string where = "params[" + std::to_string(index) + "]";
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return fail("expected " + where + " to be an object");
    DeclaredParam param;
    auto name = object->getString("name");
    if (!name)
      return fail("expected " + where + " to have a \"name\"");
    param.name = name->str();
    if (auto kind = object->getString("kind"))
      param.kind = kind->str();
    if (param.kind != "tensor" && param.kind != "scalar")
      return fail(where + ": expected kind tensor or scalar, got '" + param.kind + "'");
    if (auto dtype = object->getString("dtype"))
      param.dtype = dtype->str();
    if (const llvm::json::Value *shape = object->get("shape")) {
      param.shape.emplace();
      if (!readExtents(shape, *param.shape))
        return fail(where + ": expected \"shape\" to be a list of symbols or integers");
    }
    if (auto role = object->getString("role"))
      param.role = role->str();
    if (param.kind == "tensor" && param.role != "in" && param.role != "out" &&
        param.role != "inout")
      return fail(where + " ('" + param.name + "'): expected role in, out or inout, got '" +
                  param.role + "'");
    iface.params.push_back(std::move(param));
  }
  return iface;
}

/// A kernel parameter as the interface sees it.
struct ActualParam {
  unsigned index;
  std::string name, kind, dtype;
  std::vector<std::string> shape;
};

std::vector<ActualParam> getInterfaceParams(KernelOp kernel) {
  std::vector<ActualParam> params;
  for (BlockArgument arg : kernel.getBody().getArguments()) {
    if (isa<TmaType>(arg.getType()))
      continue; // derived by the host from the manifest, not part of the interface
    ActualParam param{arg.getArgNumber(), getParamName(kernel, arg.getArgNumber()), "scalar",
                      getDtypeName(arg.getType()).str(), {}};
    if (auto tensor = dyn_cast<GlobalTensorType>(arg.getType())) {
      param.kind = "tensor";
      param.dtype = getDtypeName(tensor.getElementType()).str();
      for (Attribute extent : tensor.getShape()) {
        if (auto symbol = dyn_cast<StringAttr>(extent))
          param.shape.push_back(symbol.getValue().str());
        else
          param.shape.push_back(std::to_string(cast<IntegerAttr>(extent).getInt()));
      }
    }
    params.push_back(std::move(param));
  }
  return params;
}

std::string describe(const ActualParam &p) {
  std::string text = "'" + p.name + "' (" + p.kind + " " + p.dtype;
  if (p.kind == "tensor")
    text += " [" + llvm::join(p.shape, ", ") + "]";
  return text + ")";
}

std::string describe(const DeclaredParam &p) {
  std::string text = "'" + p.name + "' (" + p.kind;
  if (!p.dtype.empty())
    text += " " + p.dtype;
  if (p.shape)
    text += " [" + llvm::join(*p.shape, ", ") + "]";
  return text + ")";
}

struct CakeVerifyInterfacePass
    : cake::impl::CakeVerifyInterfacePassBase<CakeVerifyInterfacePass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
    Operation *root = getOperation();
    if (interface.empty())
      return;
    std::string error;
    FailureOr<DeclaredInterface> iface = readInterface(interface, error);
    if (failed(iface)) {
      root->emitError() << error;
      return signalPassFailure();
    }
    KernelOp kernel;
    root->walk([&](KernelOp k) {
      if (k.getSymName() == iface->kernel)
        kernel = k;
    });
    if (!kernel) {
      InFlightDiagnostic diag = emitFinding(root, "interface.kernel-missing")
                                << "expected a cake.kernel named @" << iface->kernel
                                << " (the task's interface), found none";
      attachFix(diag, root, "interface.kernel-missing",
                "keep the kernel's name @" + iface->kernel);
      return signalPassFailure();
    }
    // Both checks report (one run lists every finding), then the pass fails.
    bool signatureOk = checkSignature(kernel, *iface);
    bool accessesOk = checkAccesses(kernel, *iface);
    if (!signatureOk || !accessesOk)
      signalPassFailure();
  }

  bool checkSignature(KernelOp kernel, const DeclaredInterface &iface) {
    bool ok = true;
    std::vector<ActualParam> actual = getInterfaceParams(kernel);
    size_t count = std::max(actual.size(), iface.params.size());
    std::vector<std::string> mismatches;
    for (size_t i = 0; i < count; ++i) {
      const ActualParam *a = i < actual.size() ? &actual[i] : nullptr;
      const DeclaredParam *d = i < iface.params.size() ? &iface.params[i] : nullptr;
      if (a && d && a->name == d->name && a->kind == d->kind &&
          (d->dtype.empty() || d->dtype == a->dtype) && (!d->shape || *d->shape == a->shape))
        continue;
      mismatches.push_back("parameter " + std::to_string(i) + ": expected " +
                           (d ? describe(*d) : std::string("none")) + ", got " +
                           (a ? describe(*a) : std::string("none")));
    }
    if (!mismatches.empty()) {
      // One finding per kernel, a note per differing parameter.
      ok = false;
      InFlightDiagnostic diag = emitFinding(kernel, "interface.params")
                                << "expected the task's " << iface.params.size()
                                << " parameters, got " << actual.size() << " with "
                                << mismatches.size() << " different";
      for (const std::string &mismatch : mismatches)
        diag.attachNote(kernel.getLoc()) << mismatch;
      attachFix(diag, kernel, "interface.params",
                "keep the task's parameters, in order: " + listDeclared(iface));
    }
    if (iface.symbols) {
      std::vector<std::string> symbols;
      for (StringRef symbol : kernel.getSymbolNames())
        symbols.push_back(symbol.str());
      if (symbols != *iface.symbols) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(kernel, "interface.symbols")
                                  << "expected symbols [" << llvm::join(*iface.symbols, ", ")
                                  << "], got [" << llvm::join(symbols, ", ") << "]";
        attachFix(diag, kernel, "interface.symbols",
                  "declare symbols = [\"" + llvm::join(*iface.symbols, "\", \"") + "\"]");
      }
    }
    return ok;
  }

  static std::string listDeclared(const DeclaredInterface &iface) {
    std::vector<std::string> names;
    for (const DeclaredParam &p : iface.params)
      names.push_back(describe(p));
    return llvm::join(names, ", ");
  }

  bool checkAccesses(KernelOp kernel, const DeclaredInterface &iface) {
    bool ok = true;
    for (const DeclaredParam &declared : iface.params) {
      if (declared.kind != "tensor")
        continue;
      BlockArgument arg;
      for (BlockArgument candidate : kernel.getBody().getArguments())
        if (isa<GlobalTensorType>(candidate.getType()) &&
            getParamName(kernel, candidate.getArgNumber()) == declared.name)
          arg = candidate;
      if (!arg)
        continue; // reported by checkSignature
      TensorUse use = getTensorUse(kernel, arg);
      if (declared.role != "in" && !use.writes) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(kernel, "interface.output-unwritten")
                                  << "expected output '" << declared.name
                                  << "' to be written, but no op writes it";
        attachFix(diag, kernel, "interface.output-unwritten",
                  "store the results into '" + declared.name +
                      "' (cake.store, a fragment store or a TMA store)");
      }
      if (declared.role == "in" && use.writes) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(use.firstWrite, "interface.input-written")
                                  << "expected input '" << declared.name
                                  << "' to be read only, but this op writes it";
        diag.attachNote(kernel.getLoc()) << "the task declares '" << declared.name
                                         << "' an input of @" << kernel.getSymName();
        attachFix(diag, use.firstWrite, "interface.input-written",
                  "write results only into the outputs (" + listOutputs(iface) + ")");
      }
    }
    return ok;
  }

  static std::string listOutputs(const DeclaredInterface &iface) {
    std::vector<std::string> names;
    for (const DeclaredParam &p : iface.params)
      if (p.kind == "tensor" && p.role != "in")
        names.push_back("'" + p.name + "'");
    return names.empty() ? "none declared" : llvm::join(names, ", ");
  }
};
} // namespace
