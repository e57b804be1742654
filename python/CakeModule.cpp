//===- CakeModule.cpp - the _cake extension: pybind11 over the C API ------===//
//
// A deliberately small layer: contexts and modules with safe lifetimes, and calls that return
// (result, diagnostics). The Python package (cake/__init__.py) turns those into objects and
// exceptions. Only the CAKE C API (Cake-c/) and MLIR's C API are used.
//
//===----------------------------------------------------------------------===//
#include "Cake-c/ABI.h"
#include "Cake-c/Compile.h"
#include "Cake-c/Dialect.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {
/// Raised when a closed context, or a module of one, is used.
struct ClosedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class CakePyModule;

/// One MLIR context and the modules alive in it; closing destroys the modules first.
struct ContextState {
  MlirContext context = cakeContextCreate();
  bool closed = false;
  std::set<CakePyModule *> modules;

  void close();
  ~ContextState() { close(); }
};

/// A parsed module; unusable (ClosedError) once its context is closed.
class CakePyModule {
public:
  CakePyModule(std::shared_ptr<ContextState> state, MlirModule module)
      : state(std::move(state)), module(module) {
    this->state->modules.insert(this);
  }
  CakePyModule(const CakePyModule &) = delete;
  CakePyModule &operator=(const CakePyModule &) = delete;
  ~CakePyModule() { release(); }

  void release() {
    if (mlirModuleIsNull(module))
      return;
    state->modules.erase(this);
    mlirModuleDestroy(module);
    module = {nullptr};
  }

  MlirModule get() const {
    if (mlirModuleIsNull(module))
      throw ClosedError("the module's context is closed");
    return module;
  }

private:
  std::shared_ptr<ContextState> state;
  MlirModule module;
};

void ContextState::close() {
  if (closed)
    return;
  std::set<CakePyModule *> alive = modules;
  for (CakePyModule *module : alive)
    module->release();
  mlirContextDestroy(context);
  closed = true;
}

std::string str(MlirStringRef ref) { return std::string(ref.data, ref.length); }

const char *severityName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "error";
}

py::tuple recordTuple(CakeDiagnosticRecord record, py::list notes) {
  return py::make_tuple(severityName(record.severity), str(record.file), record.line,
                        record.column, str(record.message), notes, str(record.rule),
                        str(record.hint), str(record.op));
}

/// A CakeDiagnostics list for one call, turned into Python tuples
/// (severity, file, line, column, message, notes, rule, hint, op).
class Diagnostics {
public:
  Diagnostics() = default;
  Diagnostics(const Diagnostics &) = delete;
  Diagnostics &operator=(const Diagnostics &) = delete;
  ~Diagnostics() { cakeDiagnosticsDestroy(list); }
  operator CakeDiagnostics() const { return list; }

  py::list toPython() const {
    py::list records;
    for (intptr_t i = 0, e = cakeDiagnosticsGetNum(list); i < e; ++i) {
      CakeDiagnosticRecord record = cakeDiagnosticsGet(list, i);
      py::list notes;
      for (intptr_t n = 0; n < record.numNotes; ++n)
        notes.append(recordTuple(cakeDiagnosticsGetNote(list, i, n), py::list()));
      records.append(recordTuple(record, notes));
    }
    return records;
  }

private:
  CakeDiagnostics list = cakeDiagnosticsCreate();
};

class CakePyContext {
public:
  std::shared_ptr<ContextState> live() const {
    if (state->closed)
      throw ClosedError("the context is closed");
    return state;
  }
  void close() { state->close(); }
  bool closed() const { return state->closed; }

private:
  std::shared_ptr<ContextState> state = std::make_shared<ContextState>();
};

MlirStringRef ref(const std::string &text) {
  return mlirStringRefCreate(text.data(), text.size());
}

/// (module or None, diagnostics)
py::tuple parse(const CakePyContext &context, const std::string &source,
                const std::string &filename) {
  std::shared_ptr<ContextState> state = context.live();
  Diagnostics diagnostics;
  MlirModule module = cakeParseModule(state->context, ref(source), ref(filename), diagnostics);
  py::object result = py::none();
  if (!mlirModuleIsNull(module))
    result = py::cast(std::make_unique<CakePyModule>(state, module));
  return py::make_tuple(result, diagnostics.toPython());
}

std::string print(const CakePyModule &module) {
  std::string text;
  mlirOperationPrint(
      mlirModuleGetOperation(module.get()),
      [](MlirStringRef part, void *out) { static_cast<std::string *>(out)->append(str(part)); },
      &text);
  return text;
}

/// (ok, diagnostics)
py::tuple verify(const CakePyModule &module) {
  Diagnostics diagnostics;
  bool ok = mlirLogicalResultIsSuccess(
      cakeVerify(mlirModuleGetOperation(module.get()), diagnostics));
  return py::make_tuple(ok, diagnostics.toPython());
}

/// (ok, diagnostics); the module is changed in place.
py::tuple runPipeline(const CakePyModule &module, const std::string &pipeline) {
  Diagnostics diagnostics;
  bool ok = mlirLogicalResultIsSuccess(
      cakeRunPassPipeline(module.get(), ref(pipeline), diagnostics));
  return py::make_tuple(ok, diagnostics.toPython());
}

/// ((ptx, cubin bytes, manifest JSON, ptxas report) or None, diagnostics)
py::tuple compile(const CakePyModule &module, const std::string &chip, const std::string &features,
                  unsigned optLevel, bool assemble, const std::string &ptxas,
                  unsigned hangTimeoutMs, unsigned indexBitwidth, const std::string &specialize) {
  Diagnostics diagnostics;
  CakeCompileOptions options = cakeCompileOptionsGetDefault();
  options.chip = ref(chip);
  options.features = ref(features);
  options.optLevel = optLevel;
  options.assemble = assemble;
  options.ptxasPath = ref(ptxas);
  options.hangTimeoutMs = hangTimeoutMs;
  options.indexBitwidth = indexBitwidth;
  options.specialize = ref(specialize);
  CakeCompileResult result;
  if (mlirLogicalResultIsFailure(cakeCompile(module.get(), options, diagnostics, &result)))
    return py::make_tuple(py::none(), diagnostics.toPython());
  MlirStringRef cubin = cakeCompileResultGetCubin(result);
  py::tuple outputs = py::make_tuple(str(cakeCompileResultGetPTX(result)),
                                     py::bytes(cubin.data, cubin.length),
                                     str(cakeCompileResultGetManifest(result)),
                                     str(cakeCompileResultGetPtxasReport(result)));
  cakeCompileResultDestroy(result);
  return py::make_tuple(outputs, diagnostics.toPython());
}
/// (JSON cost report or None, diagnostics)
py::tuple cost(const CakePyModule &module, const std::string &sizes, const std::string &profile) {
  Diagnostics diagnostics;
  std::string report;
  bool ok = mlirLogicalResultIsSuccess(cakeCost(
      module.get(), ref(sizes), ref(profile), diagnostics,
      [](MlirStringRef part, void *out) { static_cast<std::string *>(out)->append(str(part)); },
      &report));
  return py::make_tuple(ok ? py::object(py::str(report)) : py::object(py::none()),
                        diagnostics.toPython());
}
/// The structured JSON view of the module (Cake/Analysis/IRJson.h).
std::string toJson(const CakePyModule &module) {
  std::string text;
  cakeModuleToJson(
      module.get(),
      [](MlirStringRef part, void *out) { static_cast<std::string *>(out)->append(str(part)); },
      &text);
  return text;
}
/// The host ABI's answers (Cake-c/ABI.h) as JSON text: the sizes as parallel name/value arrays.
template <typename Call>
std::string withSizes(const std::map<std::string, int64_t> &sizes, Call call) {
  std::vector<MlirStringRef> names;
  std::vector<int64_t> values;
  for (const auto &[name, value] : sizes) {
    names.push_back(ref(name));
    values.push_back(value);
  }
  std::string text;
  call(static_cast<intptr_t>(names.size()), names.data(), values.data(),
       [](MlirStringRef part, void *out) { static_cast<std::string *>(out)->append(str(part)); },
       &text);
  return text;
}
std::string checkSizes(const std::string &manifest, const std::string &kernel,
                       const std::map<std::string, int64_t> &sizes) {
  return withSizes(sizes, [&](intptr_t n, const MlirStringRef *names, const int64_t *values,
                              MlirStringCallback callback, void *out) {
    cakeManifestCheckSizes(ref(manifest), ref(kernel), n, names, values, callback, out);
  });
}
std::string evaluate(const std::string &expression, const std::map<std::string, int64_t> &sizes) {
  return withSizes(sizes, [&](intptr_t n, const MlirStringRef *names, const int64_t *values,
                              MlirStringCallback callback, void *out) {
    cakeManifestEvaluate(ref(expression), n, names, values, callback, out);
  });
}
} // namespace

PYBIND11_MODULE(_cake, m) {
  m.doc() = "CAKE's C API for Python; use the `cake` package, not this module";
  py::register_exception<ClosedError>(m, "ClosedError", PyExc_RuntimeError);

  py::class_<CakePyModule>(m, "_Module")
      .def("__str__", &print)
      .def("verify", &verify)
      .def("run_pipeline", &runPipeline, py::arg("pipeline"))
      .def("cost", &cost, py::arg("sizes"), py::arg("profile"))
      .def("to_json", &toJson)
      .def("compile", &compile, py::arg("chip"), py::arg("features"), py::arg("opt_level"),
           py::arg("assemble"), py::arg("ptxas"), py::arg("hang_timeout_ms") = 0,
           py::arg("index_bitwidth") = 0, py::arg("specialize") = "");

  m.def("_check_sizes", &checkSizes, py::arg("manifest"), py::arg("kernel"), py::arg("sizes"));
  m.def("_evaluate", &evaluate, py::arg("expression"), py::arg("sizes"));

  py::class_<CakePyContext>(m, "_Context")
      .def(py::init<>())
      .def("close", &CakePyContext::close)
      .def_property_readonly("closed", &CakePyContext::closed)
      .def("parse", &parse, py::arg("source"), py::arg("filename"));
}
