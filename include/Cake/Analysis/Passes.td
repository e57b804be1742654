//===- Passes.td - cake analysis passes --------------------*- tablegen -*-===//
#ifndef CAKE_ANALYSIS_PASSES_TD
#define CAKE_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CakePrintCostPass : Pass<"cake-print-cost", "::mlir::ModuleOp"> {
  let summary = "Predict each kernel's time with the analytical cost model; print remarks and a JSON report";
  let description = [{
    Runs `CostAnalysis` on every `cake.kernel` and binds it to the problem sizes and a hardware
    profile (docs/CostModel.md). For each kernel it emits remarks: the predicted time, the bound
    (`compute`, `memory`, `latency` or `sync`) with its evidence, occupancy and waves, FLOPs per
    unit and bytes per memory level; remarks at the loops give their trip counts and, for TMA
    pipelines, whether the stages hide the copy latency; remarks at memory accesses report
    uncoalesced global accesses and shared-memory bank conflicts (simulated for one warp, with the
    buffer's swizzle). With `json`, the cost report (schema `cake-cost-report`, version 1) goes to
    a file or, with `json=-`, to stdout.

    Without a value for a size the prediction needs, the pass warns with the names of the missing
    sizes and reports per-size formulas (grid, FLOPs, bytes) instead of a time; it never predicts
    from a default. An unknown profile, a profile with a missing field, a profile that does not
    cover the kernel's target, or a malformed option is an error that names it.

    The profile is `profile=` (a file, or a name looked up in the profile directory), else the
    profile of the kernel's target in `profile-dir=`, `$CAKE_PROFILE_DIR`, or `share/cake/profiles`
    of the build or install tree. Registers per thread come from `ptxas-report=` (the log of
    `cake-translate --ptxas-log`, i.e. `ptxas -v`) when given, else from the warp roles' budgets
    (setmaxnreg kernels run one block per SM), else an estimate.

    ```
    cake-opt k.mlir --cake-print-cost="sizes=M=8192,N=8192,K=8192 json=-" -o /dev/null
    ```
  }];
  let options = [
    Option<"sizes", "sizes", "std::string", "\"\"",
           "Problem sizes as NAME=VALUE,NAME=VALUE (e.g. M=8192,N=8192,K=8192)">,
    Option<"profile", "profile", "std::string", "\"\"",
           "Hardware profile: a JSON file, or a name (h200) in the profile directory; "
           "default: the profile of the kernel's target">,
    Option<"profileDir", "profile-dir", "std::string", "\"\"",
           "Directory of profiles (default $CAKE_PROFILE_DIR, else share/cake/profiles)">,
    Option<"ptxasReport", "ptxas-report", "std::string", "\"\"",
           "ptxas -v output (cake-translate --ptxas-log) giving the registers per thread">,
    Option<"json", "json", "std::string", "\"\"",
           "Write the JSON cost report to this file ('-': stdout)">
  ];
}

def CakePrintThreadModelPass : Pass<"cake-print-thread-model", "::mlir::ModuleOp"> {
  let summary = "Print which threads of a block execute each op, as the verifier's thread model sees it";
  let description = [{
    The schedule verifier (`cake-verify-*`) evaluates every kernel per thread of a block
    (`ThreadModel`, include/Cake/Analysis/ThreadModel.h): thread, lane, warp and warpgroup ids
    are known; problem sizes and block ids are uniform unknowns. This pass shows the result: a
    remark at each kernel, then at every op that synchronizes, accesses memory or branches
    (barriers, collectives, mbarrier ops, memory accesses, `scf.if`, `scf.for`), naming how many
    threads execute it, as ranges, and whether that is exact (a thread that reaches the op under
    a condition the model cannot decide makes it inexact), with a note at the innermost control
    flow that depends on the thread.

    With `sizes=N=1001,...` (and `block=X,Y,Z`, default 0) the model is one concrete launch, the
    way `cake-verify-shapes` builds it: sizes, block ids and grid extents are constants, so
    guards such as `lane < N` are decided. A malformed option is an error that names it.

    ```
    cake-opt k.mlir --cake-print-thread-model="sizes=N=3 block=0" -o /dev/null
    ```
  }];
  let options = [
    Option<"sizes", "sizes", "std::string", "\"\"",
           "Problem sizes as NAME=VALUE,NAME=VALUE: model one launch at these sizes">,
    Option<"block", "block", "std::string", "\"\"",
           "The block to model as X[,Y[,Z]] (with sizes; default 0,0,0)">
  ];
}

def CakePrintIRJsonPass : Pass<"cake-print-ir-json", "::mlir::ModuleOp"> {
  let summary = "Print the module as a structured JSON view (for tools that do not parse MLIR)";
  let description = [{
    Prints `{"schema": "cake-ir", "version": 1, "ops": [...]}` on stdout: every op with its name,
    location (`{file, line, col}` or null), operands and results (values numbered `%0`, `%1`, ...
    in the order they are defined; results and block arguments with their types), attributes
    (each printed as MLIR prints it), `values` (those attributes that are plain data as JSON:
    booleans, integers, floats, strings and arrays of them, `array<i64: ...>` included) and
    regions (blocks with their arguments and ops). The IR is
    not changed. The same view comes from the C API (`cakeModuleToJson`) and the Python bindings
    (`Module.to_json()`, `Module.walk()`), so the harness and agents read IR without regular
    expressions.

    ```
    cake-opt k.mlir --cake-print-ir-json -o /dev/null
    ```
  }];
}

#endif // CAKE_ANALYSIS_PASSES_TD
