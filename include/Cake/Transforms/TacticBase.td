//===- TacticBase.td - one record per tactic: its pass, its op, its presets -*- tablegen -*-===//
//
// A tactic is declared once, in its own file under include/Cake/Transforms/Tactics/ (every file
// there is read: see lib/Transforms/CMakeLists.txt), with `defm CakeTactic<Name> :
// CakeTactic<...>`. That one record makes
//   - the pass `cake-tactic-<name>` (CakeTactic<Name>Pass, its options, its documentation),
//   - the transform op `transform.cake.<name>` (CakeTactic<Name>Op: the options as attributes of
//     the same names and defaults, the same documentation, the op's glue code), and
//   - the presets the harness's search tries (`cake-opt --cake-list-tactics`), each written as a
//     pass pipeline and as a transform op.
// The rewrite is two static members of the op: `applyTactic(rewriter, root, options)`, the
// rewrite both the pass and the op run, and, when the tactic has options, `checkOptions(options)`
// ("" or why the options are refused). A short rewrite is written in the record itself, as the
// bodies `rewrite` and `check` (then the record is the tactic's only file); a long one defines
// them in lib/Transforms/Tactic<Name>.cpp and leaves `rewrite` empty. Nothing else names the
// tactic.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_TACTICBASE_TD
#define CAKE_TRANSFORMS_TACTICBASE_TD

include "mlir/Pass/PassBase.td"
include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Options: a pass option and an op attribute of the same name and default
//===----------------------------------------------------------------------===//

// `read` is the C++ that turns the op's getter (GETTER) into the option's C++ type.
class TacticOption<string optionName, string optionCppType, Attr optionAttr,
                   string optionDefault, string optionDoc, string optionRead = "GETTER"> {
  string name = optionName;
  string cppType = optionCppType;
  Attr attr = optionAttr;
  string defaultValue = optionDefault;
  string description = optionDoc;
  string read = optionRead;
  string docDefault = "default " # optionDefault;
  // For `cake-opt --cake-list-tactics`: the option's type, and its default as a C++ expression
  // that converts to llvm::json::Value.
  string jsonType = !cond(!eq(optionCppType, "int64_t"): "int64", !eq(optionCppType, "bool"): "bool",
                          true: "string");
  string jsonDefault = !if(!eq(optionCppType, "int64_t"),
                           "int64_t(" # optionDefault # ")", optionDefault);
}

class IntTacticOption<string name, string default, string doc>
    : TacticOption<name, "int64_t", DefaultValuedAttr<I64Attr, default>, default, doc,
                   // ODS gives I64Attr values as uint64_t; the tactics take the signed value.
                   "static_cast<int64_t>(GETTER)">;

// An option the script must give: the pass's default (0) is one the option check refuses.
class RequiredIntTacticOption<string name, string doc>
    : TacticOption<name, "int64_t", I64Attr, "0", doc, "static_cast<int64_t>(GETTER)"> {
  let docDefault = "required; the pass's default 0 is refused";
  let jsonDefault = "nullptr";
}

class BoolTacticOption<string name, string default, string doc>
    : TacticOption<name, "bool", DefaultValuedAttr<BoolAttr, default>, default, doc>;

class StrTacticOption<string name, string default, string doc>
    : TacticOption<name, "std::string", DefaultValuedAttr<StrAttr, "\"" # default # "\"">,
                   "\"" # default # "\"", doc, "GETTER.str()">;

//===----------------------------------------------------------------------===//
// Presets: option values the harness's search tries, and the ops a kernel must (not) contain
//===----------------------------------------------------------------------===//

// One option's value, as the pass pipeline spells it and as the op's attribute.
class PresetValue<string key, string passText, string attrText> {
  string pass = key # "=" # passText;
  string attr = key # " = " # attrText;
}
class IntValue<string key, int value> : PresetValue<key, "" # value, value # " : i64">;
class StrValue<string key, string value> : PresetValue<key, value, "\"" # value # "\"">;

class TacticPreset<string presetName, list<PresetValue> presetValues = [],
                   list<string> presetRequires = [], list<string> presetForbids = []> {
  string name = presetName;
  list<PresetValue> values = presetValues;
  list<string> requiresOps = presetRequires;
  list<string> forbidsOps = presetForbids;
}

//===----------------------------------------------------------------------===//
// The tactic
//===----------------------------------------------------------------------===//


// `mnemonic`: the pass is cake-tactic-<mnemonic>, the op transform.cake.<mnemonic with _ for ->.
// `rank`: the tactic's place in the harness's list of presets (its search breaks ties in that
// order), unique per tactic. `dialects`: what the rewrite creates (the pass's dependent dialects).
// `rewrite`: the body of applyTactic (parameters `rewriter`, `root`, `options`), compiled in
// TacticOps.cpp, which includes the Cake IR, memory access, target and TacticUtils headers and
// the arith, scf and vector dialects (it is a static member of the op class: write
// `mlir::emitError(loc)`, as a bare `emitError` names the op's own); empty when
// lib/Transforms/Tactic<Name>.cpp defines it.
// `check`: the body of checkOptions (parameter `options`), for a tactic with options and an
// inline rewrite.
multiclass CakeTactic<string mnemonic, int rank, string tacticSummary, string tacticDoc,
                      list<TacticOption> tacticOptions = [], list<TacticPreset> presets = [],
                      list<string> dialects = [], code rewrite = "", code check = ""> {
  // What every tactic op shares, appended to each description.
  defvar targetDoc = [{

    #### As a transform op

    `%target` is a handle to the payload ops to run the tactic on: the module (then every
    `cake.kernel` in it) or `cake.kernel` ops. Each payload op is one application, as if the pass
    ran on it; the op only reads the handle. Handles to the module and to the kernels stay valid;
    ops inside a kernel that the tactic replaces or erases are dropped from the handles that held
    them, so match again after a tactic.

    When the tactic does not apply, the op fails silenceably with the pass's
    `[tactic.not-applicable]` error and notes, and the payload op is as it was (a kernel the
    tactic changed before it refused gets its old body and attributes back). Under
    `failures(propagate)` that error is reported; under `failures(suppress)` the next op runs. An
    attribute out of range is an error of the script, reported by the op's verifier before
    anything runs.
}];
  defvar passArgument = "cake-tactic-" # mnemonic;
  defvar opName = "cake." # !subst("-", "_", mnemonic);
  defvar hasOptions = !not(!empty(tacticOptions));
  defvar inlineRewrite = !not(!empty(rewrite));
  assert !or(!empty(check), !and(inlineRewrite, hasOptions)),
         "CakeTactic<\"" # mnemonic # "\">: `check` needs options and an inline `rewrite`";
  assert !or(!not(inlineRewrite), !not(hasOptions), !not(!empty(check))),
         "CakeTactic<\"" # mnemonic # "\">: an inline `rewrite` with options needs `check`";
  defvar readOption = !foreach(o, tacticOptions,
      "  options." # o.name # " = " #
      !subst("GETTER", "get" # !toupper(!substr(o.name, 0, 1)) # !substr(o.name, 1) # "()",
             o.read) # ";\n");
  // C++ for one preset: {name, pass, pipeline, transform, requires, forbids}.
  defvar presetCode = !foreach(p, presets,
      "  presets.push_back({\"" # p.name # "\", \"" # passArgument # "\",\n" #
      "      R\"cake(builtin.module(" # passArgument #
        !if(!empty(p.values), "",
            "{" # !interleave(!foreach(v, p.values, v.pass), " ") # "}") # "))cake\",\n" #
      "      R\"cake(transform." # opName # " %target" #
        !if(!empty(p.values), "",
            " {" # !interleave(!foreach(v, p.values, v.attr), ", ") # "}") #
        " : !transform.any_op)cake\",\n" #
      "      {" # !interleave(!foreach(op, p.requiresOps, "\"" # op # "\""), ", ") # "},\n" #
      "      {" # !interleave(!foreach(op, p.forbidsOps, "\"" # op # "\""), ", ") # "}});\n");

  def NAME # Pass : Pass<passArgument> {
    let summary = tacticSummary;
    let description = tacticDoc;
    let options = !foreach(o, tacticOptions,
                           Option<o.name, o.name, o.cppType, o.defaultValue, o.description>);
    let dependentDialects = dialects;
  }

  def NAME # Op : Op<Transform_Dialect, opName,
                     [TransformOpInterface, TransformEachOpTrait,
                      DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
    let cppNamespace = "::mlir::cake";
    let summary = tacticSummary;
    // Indented as the records' descriptions are (the generator strips the common indentation).
    let description = "\n    The tactic of the pass `" # passArgument # "`, whose options are " #
        "the op's attributes" #
        !if(hasOptions, ":\n\n" # !interleave(!foreach(o, tacticOptions,
            "    - `" # o.name # "` (" # o.docDefault # "): " # o.description), "\n"), ".") #
        "\n" # tacticDoc # targetDoc #
        !if(!empty(presets), "",
            "\n\n    ```mlir\n    transform." # opName # " %target" #
            !if(!empty(!head(presets).values), "",
                " {" # !interleave(!foreach(v, !head(presets).values, v.attr), ", ") # "}") #
            " : !transform.any_op\n    ```\n");
    let arguments = !con((ins TransformHandleTypeInterface:$target),
                         !dag(ins, !foreach(o, tacticOptions, o.attr),
                              !foreach(o, tacticOptions, o.name)));
    let assemblyFormat = "$target attr-dict `:` type($target)";
    let hasVerifier = 1;

    let extraClassDeclaration = !if(hasOptions,
        "  using Options = " # NAME # "PassOptions;\n" #
        "  /// \"\" or why `options` are refused (the record's `check` or the tactic's .cpp).\n" #
        "  static std::string checkOptions(const Options &options);\n",
        "  struct Options {};\n" #
        "  static std::string checkOptions(const Options &) { return \"\"; }\n") # [{
  static constexpr ::llvm::StringLiteral passArgument = "}] # passArgument # [{";
  static constexpr int searchRank = }] # rank # [{;
  /// The rewrite, run by the pass and by the op (the record's `rewrite` or the tactic's .cpp):
  /// rewrites every cake.kernel in or at `root`, or emits "[tactic.not-applicable] ..." errors
  /// and fails. Ops it erases go through `rewriter`, so that the transform interpreter drops
  /// them from handles.
  static ::mlir::LogicalResult applyTactic(::mlir::RewriterBase &rewriter,
                                           ::mlir::Operation *root, const Options &options);
  /// The options as this op's attributes say.
  Options getTacticOptions();
  /// The options a pass instance holds (its members are the options, by name).
  template <typename PassT> static Options optionsOfPass(const PassT &pass) {
    Options options;
}] # !interleave(!foreach(o, tacticOptions,
                         "    options." # o.name # " = pass." # o.name # ";\n"), "") # [{
    return options;
  }
  static void appendPresets(std::vector<::mlir::cake::TacticPreset> &presets);
  /// The pass, its transform op, its summary and its options (name, type, default,
  /// description): what an agent needs to write this tactic's pipeline or op itself.
  static ::llvm::json::Object describeTactic();
  ::mlir::DiagnosedSilenceableFailure applyToOne(
      ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
      ::mlir::transform::ApplyToEachResultList &results,
      ::mlir::transform::TransformState &state);
}];

    // TacticOps.cpp includes this with runTacticOp, verifyTacticOptions and TacticPass declared.
    let extraClassDefinition = !if(inlineRewrite,
        "::mlir::LogicalResult $cppClass::applyTactic(\n" #
        "    [[maybe_unused]] ::mlir::RewriterBase &rewriter,\n" #
        "    [[maybe_unused]] ::mlir::Operation *root,\n" #
        "    [[maybe_unused]] const Options &options) {" # rewrite # "}\n" #
        !if(hasOptions,
            "std::string $cppClass::checkOptions([[maybe_unused]] const Options &options) {" #
            check # "}\n", ""),
        "") # [{
$cppClass::Options $cppClass::getTacticOptions() {
  Options options;
}] # !interleave(readOption, "") # [{
  return options;
}
::mlir::LogicalResult $cppClass::verify() {
  return verifyTacticOptions(*this, checkOptions(getTacticOptions()));
}
void $cppClass::getEffects(
    ::llvm::SmallVectorImpl<::mlir::MemoryEffects::EffectInstance> &effects) {
  ::mlir::transform::onlyReadsHandle(getTargetMutable(), effects);
  ::mlir::transform::modifiesPayload(effects);
}
::mlir::DiagnosedSilenceableFailure $cppClass::applyToOne(
    ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
    ::mlir::transform::ApplyToEachResultList &, ::mlir::transform::TransformState &) {
  return runTacticOp<$cppClass>(rewriter, target, getTacticOptions());
}
void $cppClass::appendPresets(std::vector<::mlir::cake::TacticPreset> &presets) {
}] # !interleave(presetCode, "") # [{}
::llvm::json::Object $cppClass::describeTactic() {
  ::llvm::json::Array options;
}] # !interleave(!foreach(o, tacticOptions,
        "  options.push_back(::llvm::json::Object{{\"name\", \"" # o.name # "\"}, " #
        "{\"type\", \"" # o.jsonType # "\"},\n" #
        "      {\"default\", ::llvm::json::Value(" # o.jsonDefault # ")},\n" #
        "      {\"description\", R\"cake(" # o.description # ")cake\"}});\n"), "") # [{
  return ::llvm::json::Object{{"pass", "}] # passArgument # [{"},
                              {"transform_op", "transform.}] # opName # [{"},
                              {"summary", R"cake(}] # tacticSummary # [{)cake"},
                              {"options", std::move(options)}};
}
// The pass: the generated base with its options, and TacticPass's runOnOperation.
#define GEN_PASS_DEF_}] # !toupper(NAME) # [{PASS
#include "Cake/Transforms/Passes.h.inc"
template struct TacticPass<$cppClass, impl::}] # NAME # [{PassBase>;
}];
  }
}

#endif // CAKE_TRANSFORMS_TACTICBASE_TD
