//===- Rules.cpp - verifier rules loaded as PDL at run time ---------------===//
//
// Each `pdl.pattern @<name>` of a rule file becomes the pass `cake-rule-<name>`. The pass compiles
// its pattern to PDL bytecode (FrozenRewritePatternSet) and offers every op of the input to it
// once, through a PatternApplicator rather than the greedy driver: the rewrite reports a finding
// (`cakeReport`) and changes nothing, so a driver looking for a fixpoint would report it again.
//
//===----------------------------------------------------------------------===//
#include "Cake/Verify/Rules.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/ParseGuard.h"
#include "Cake/Verify/Findings.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <mutex>

using namespace mlir;
using namespace mlir::cake;

namespace {
/// One loaded rule: the file's text (reparsed in each pass's context) and its pattern's name.
struct Rule {
  std::string path, source, name;
};

std::mutex &getRulesMutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<std::shared_ptr<const Rule>> &getRules() {
  static std::vector<std::shared_ptr<const Rule>> rules;
  return rules;
}

constexpr StringLiteral kReport = "cakeReport";
constexpr StringLiteral kNoneBefore = "cakeNoneBefore";
constexpr StringLiteral kNoneSince = "cakeNoneSince";
constexpr StringLiteral kCollides = "cakeCollides";
constexpr StringLiteral kBlockThreadsAtLeast = "cakeBlockThreadsAtLeast";
constexpr StringRef kNativeFunctions[] = {kReport, kNoneBefore, kNoneSince, kCollides,
                                          kBlockThreadsAtLeast};

/// The kernel's ops in program order (pre-order), up to but excluding `op`.
SmallVector<Operation *> getOpsBefore(Operation *op) {
  SmallVector<Operation *> before;
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return before;
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *other) {
    if (other == op)
      return WalkResult::interrupt();
    before.push_back(other);
    return WalkResult::advance();
  });
  return before;
}

StringRef getString(const PDLValue &value) {
  if (Attribute attr = value.dyn_cast<Attribute>())
    if (auto str = dyn_cast<StringAttr>(attr))
      return str.getValue();
  return {};
}

/// cakeNoneBefore(op, "name"): no op named `name` precedes `op` in its kernel.
LogicalResult noneBefore(PatternRewriter &, PDLResultList &, ArrayRef<PDLValue> args) {
  auto *op = args[0].dyn_cast<Operation *>();
  StringRef name = getString(args[1]);
  if (!op)
    return failure();
  for (Operation *other : getOpsBefore(op))
    if (other->getName().getStringRef() == name)
      return failure();
  return success();
}

/// cakeNoneSince(op, "name", "since"): an op named `since` precedes `op` in its kernel and no op
/// named `name` lies between the last of them and `op`.
LogicalResult noneSince(PatternRewriter &, PDLResultList &, ArrayRef<PDLValue> args) {
  auto *op = args[0].dyn_cast<Operation *>();
  StringRef name = getString(args[1]), since = getString(args[2]);
  if (!op)
    return failure();
  bool open = false;
  for (Operation *other : getOpsBefore(op)) {
    StringRef otherName = other->getName().getStringRef();
    if (otherName == since)
      open = true;
    else if (otherName == name)
      open = false;
  }
  return success(open);
}

/// cakeCollides(op, "attr"): another op of the same name in the kernel has the same value of
/// `attr` but lies in another `cake.role` or differs in its other attributes.
LogicalResult collides(PatternRewriter &, PDLResultList &, ArrayRef<PDLValue> args) {
  auto *op = args[0].dyn_cast<Operation *>();
  StringRef attrName = getString(args[1]);
  auto kernel = op ? op->getParentOfType<KernelOp>() : KernelOp();
  Attribute key = op ? op->getAttr(attrName) : Attribute();
  if (!kernel || !key)
    return failure();
  Operation *role = op->getParentOfType<RoleOp>();
  bool found = false;
  kernel.walk([&](Operation *other) {
    if (other == op || other->getName() != op->getName() || other->getAttr(attrName) != key)
      return WalkResult::advance();
    found = other->getParentOfType<RoleOp>() != role ||
            other->getAttrDictionary() != op->getAttrDictionary();
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return success(found);
}

/// cakeBlockThreadsAtLeast(op, N : i64): `op`'s kernel runs blocks of at least N threads (the
/// per-thread register cap is 64K / threads, so big blocks fail where small ones compile).
LogicalResult blockThreadsAtLeast(PatternRewriter &, PDLResultList &, ArrayRef<PDLValue> args) {
  auto *op = args[0].dyn_cast<Operation *>();
  auto kernel = op ? op->getParentOfType<KernelOp>() : KernelOp();
  Attribute attr = args[1].dyn_cast<Attribute>();
  auto threads = dyn_cast_or_null<IntegerAttr>(attr);
  if (!kernel || !threads)
    return failure();
  return success(kernel.getNumThreads() >= threads.getInt());
}

/// Parses a rule file into `context`; diagnostics name the file and line.
OwningOpRef<ModuleOp> parseRuleFile(StringRef source, StringRef path, MLIRContext *context) {
  ParserConfig config(context);
  return parseGuardedSourceString(source, config, path);
}

/// Checks what the parser does not: every pattern names registered ops and known native
/// functions, and reports instead of rewriting.
LogicalResult checkRuleModule(ModuleOp module, StringRef path) {
  MLIRContext *context = module.getContext();
  bool ok = true;
  auto fail = [&](Operation *op) {
    ok = false;
    return op->emitError() << "in rule file " << path << ": ";
  };
  for (Operation &top : module.getBody()->getOperations()) {
    auto pattern = dyn_cast<pdl::PatternOp>(top);
    if (!pattern) {
      fail(&top) << "expected only pdl.pattern ops, got '" << top.getName() << "'";
      continue;
    }
    if (!pattern.getSymName()) {
      fail(pattern) << "expected a name on the pattern (`pdl.pattern @rule-name`)";
      continue;
    }
    bool reports = false;
    pattern.walk([&](Operation *op) {
      if (auto operation = dyn_cast<pdl::OperationOp>(op)) {
        std::optional<StringRef> name = operation.getOpName();
        if (!name)
          return;
        StringRef dialect = name->split('.').first;
        (void)context->getOrLoadDialect(dialect);
        if (!RegisteredOperationName::lookup(*name, context))
          fail(op) << "unknown op '" << *name << "'";
        if (op->getParentOfType<pdl::RewriteOp>())
          fail(op) << "rules report findings; they do not create ops";
      } else if (auto constraint = dyn_cast<pdl::ApplyNativeConstraintOp>(op)) {
        if (!llvm::is_contained(kNativeFunctions, constraint.getName()) ||
            constraint.getName() == kReport)
          fail(op) << "unknown native constraint '" << constraint.getName() << "' (known: "
                   << kNoneBefore << ", " << kNoneSince << ", " << kCollides << ", "
                   << kBlockThreadsAtLeast << ")";
      } else if (auto rewrite = dyn_cast<pdl::ApplyNativeRewriteOp>(op)) {
        if (rewrite.getName() != kReport)
          fail(op) << "unknown native rewrite '" << rewrite.getName() << "' (known: " << kReport
                   << ")";
        else if (rewrite.getArgs().size() != 4)
          fail(op) << "expected " << kReport << "(op, rule, message, hint)";
        reports = true;
      } else if (isa<pdl::EraseOp, pdl::ReplaceOp>(op)) {
        fail(op) << "rules report findings; they do not rewrite";
      }
    });
    if (!reports)
      fail(pattern) << "expected the rewrite to call " << kReport
                    << "(op, \"rule-id\", \"message\", \"hint\")";
  }
  return success(ok);
}

/// The pass of one rule.
struct CakeRulePass : PassWrapper<CakeRulePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CakeRulePass)

  explicit CakeRulePass(std::shared_ptr<const Rule> rule)
      : rule(std::move(rule)), argument("cake-rule-" + this->rule->name),
        description("Loaded rule '" + this->rule->name + "' from " + this->rule->path) {}
  CakeRulePass(const CakeRulePass &other)
      : PassWrapper(other), rule(other.rule), argument(other.argument),
        description(other.description) {}

  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return description; }
  StringRef getName() const override { return argument; }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<pdl::PDLDialect, pdl_interp::PDLInterpDialect>();
  }

  LogicalResult initialize(MLIRContext *context) override {
    OwningOpRef<ModuleOp> parsed = parseRuleFile(rule->source, rule->path, context);
    if (!parsed)
      return failure();
    OwningOpRef<ModuleOp> module = ModuleOp::create(parsed->getLoc());
    for (auto pattern : parsed->getBody()->getOps<pdl::PatternOp>())
      if (pattern.getSymName() == rule->name)
        module->getBody()->push_back(pattern->clone());
    findings = std::make_shared<int>(0);
    PDLPatternModule pdl(std::move(module));
    pdl.registerConstraintFunction(kNoneBefore, noneBefore);
    pdl.registerConstraintFunction(kNoneSince, noneSince);
    pdl.registerConstraintFunction(kCollides, collides);
    pdl.registerConstraintFunction(kBlockThreadsAtLeast, blockThreadsAtLeast);
    std::shared_ptr<int> count = findings;
    pdl.registerRewriteFunction(
        kReport, [count](PatternRewriter &, PDLResultList &, ArrayRef<PDLValue> args) {
          auto *op = args[0].dyn_cast<Operation *>();
          if (!op)
            return failure();
          StringRef ruleId = getString(args[1]);
          InFlightDiagnostic diag = emitFinding(op, ruleId) << getString(args[2]);
          attachFix(diag, op, ruleId, getString(args[3]));
          ++*count;
          return success();
        });
    RewritePatternSet set(context);
    set.add(std::move(pdl));
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(set));
    return success();
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != getOperation())
        ops.push_back(op);
    });
    PatternApplicator applicator(*patterns);
    applicator.applyDefaultCostModel();
    PatternRewriter rewriter(&getContext());
    *findings = 0;
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      (void)applicator.matchAndRewrite(op, rewriter);
    }
    if (*findings)
      signalPassFailure();
  }

  std::shared_ptr<const Rule> rule;
  std::string argument, description;
  std::shared_ptr<FrozenRewritePatternSet> patterns;
  std::shared_ptr<int> findings;
};
} // namespace

LogicalResult mlir::cake::loadRuleFile(StringRef path, const DialectRegistry &registry) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "error: cannot open rule file " << path << ": " << error << "\n";
    return failure();
  }
  MLIRContext context(registry);
  context.loadDialect<pdl::PDLDialect, pdl_interp::PDLInterpDialect>();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(file->getBuffer(), path),
                               llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string source = file->getBuffer().str();
  OwningOpRef<ModuleOp> module = parseRuleFile(source, path, &context);
  if (!module || failed(checkRuleModule(*module, path)))
    return failure();
  std::lock_guard<std::mutex> lock(getRulesMutex());
  for (auto pattern : module->getBody()->getOps<pdl::PatternOp>()) {
    auto rule = std::make_shared<const Rule>(Rule{path.str(), source, pattern.getSymName()->str()});
    getRules().push_back(rule);
    registerPass([rule]() -> std::unique_ptr<Pass> { return std::make_unique<CakeRulePass>(rule); });
  }
  return success();
}

std::vector<std::function<std::unique_ptr<Pass>()>> mlir::cake::getLoadedRulePasses() {
  std::lock_guard<std::mutex> lock(getRulesMutex());
  std::vector<std::function<std::unique_ptr<Pass>()>> passes;
  for (const std::shared_ptr<const Rule> &rule : getRules())
    passes.push_back([rule]() -> std::unique_ptr<Pass> {
      return std::make_unique<CakeRulePass>(rule);
    });
  return passes;
}

std::vector<std::string> mlir::cake::getShippedRuleFiles(StringRef executable) {
  llvm::SmallString<256> root(llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(root, "share", "cake", "rules");
  std::vector<std::string> files;
  for (std::string dir : {std::string(root), std::string(root) + "/learned"}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      StringRef ext = llvm::sys::path::extension(it->path());
      if (ext == ".mlir" || ext == ".pdl")
        files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

ArrayRef<StringRef> mlir::cake::getRuleNativeFunctions() { return kNativeFunctions; }
