//===- TacticOps.td - the tactics as Transform-dialect ops --*- tablegen -*-===//
//
// One transform op per tactic (transform.cake.<name>), injected into the Transform dialect by an
// extension (lib/Transforms/TacticOps.cpp). Each runs the function its cake-tactic-* pass runs
// (lib/Transforms/Tactics.h), with the pass's options as attributes of the same names and
// defaults; a tactic that does not apply is a silenceable failure, so that
// `transform.sequence failures(suppress)` or `transform.alternatives` can go on to the next one.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_TACTICOPS_TD
#define CAKE_TRANSFORMS_TACTICOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// What every tactic op shares, appended to each description.
defvar CakeTacticTargetDoc = [{

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

class CakeTacticOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "cake." # mnemonic,
         !listconcat([TransformOpInterface, TransformEachOpTrait,
                      DeclareOpInterfaceMethods<MemoryEffectsOpInterface>], traits)> {
  let cppNamespace = "::mlir::cake";
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter, ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
  // Reads the handle, changes the payload: the same for every tactic.
  let extraClassDefinition = [{
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::MemoryEffects::EffectInstance> &effects) {
      ::mlir::transform::onlyReadsHandle(getTargetMutable(), effects);
      ::mlir::transform::modifiesPayload(effects);
    }
  }];
}

def CakePipelineStagesTacticOp : CakeTacticOp<"pipeline_stages"> {
  let summary = "Tactic: change the stage count of every cake.pipeline and its stage buffers";
  let description = !strconcat([{
    The tactic of `cake-tactic-pipeline-stages`: gives every `cake.pipeline.create` `stages`
    slots and every shared buffer indexed by its slot a leading dimension of `stages`.

    Not applicable when a stage buffer is used without the pipeline's slot or its leading
    dimension is not the old stage count, when the pipeline value feeds other ops than pipeline
    and TMA ops, or when the kernel's shared memory would exceed its target's limit. `stages`
    must be 1 or more (the pass's default, 0, is refused, so the op has no default).

    ```mlir
    transform.cake.pipeline_stages %target {stages = 3 : i64} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$stages);
  let hasVerifier = 1;
}

def CakePadTacticOp : CakeTacticOp<"pad"> {
  let summary = "Tactic: pad the rows of shared buffers accessed by plain loads and stores";
  let description = !strconcat([{
    The tactic of `cake-tactic-pad`: adds `pad = elements` to every `cake.alloc_smem` buffer of
    rank 2 or more without swizzle or pad whose every user is a `cake.load` or `cake.store`.

    Not applicable when no buffer qualifies (a note per buffer says why: rank 1, swizzled,
    already padded, used by TMA, wgmma, ldmatrix or cp.async, or a pad that would misalign its
    widest access) or when the kernel's shared memory would exceed its target's limit.
    `elements` (default 4) must be 1 or more.

    ```mlir
    transform.cake.pad %target {elements = 4 : i64} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "4">:$elements);
  let hasVerifier = 1;
}

def CakeSwizzleTacticOp : CakeTacticOp<"swizzle"> {
  let summary = "Tactic: swizzle shared buffers accessed by plain loads and stores";
  let description = !strconcat([{
    The tactic of `cake-tactic-swizzle`: adds `swizzle = bytes` to the buffers `pad` considers,
    when every access provably stays inside one 16-byte chunk.

    Not applicable when no buffer qualifies (a note per buffer: rows not a multiple of 16 bytes,
    a size not a multiple of `bytes`, a vector access wider than 16 bytes or whose innermost
    index is not provably a multiple of its width, ...) or when the swizzled buffers' alignment
    exceeds the target's shared memory. `bytes` (default 128) must be 32, 64 or 128.

    ```mlir
    transform.cake.swizzle %target {bytes = 128 : i64} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "128">:$bytes);
  let hasVerifier = 1;
}

def CakeStageRowsTacticOp : CakeTacticOp<"stage_rows"> {
  let summary = "Tactic: stage the rows a lane-strided loop reads in shared memory, once per block";
  let description = !strconcat([{
    The tactic of `cake-tactic-stage-rows`: rewrites `scf.for %k = %lane to %K step 32`, whose
    inner loop loads a global row `%k` per lane, into a loop over tiles of 32 rows that the block
    copies into shared memory once.

    Not applicable when no loop in a kernel body has that form (a note per loop says why), or
    when the tile does not fit the target's shared memory.

    ```mlir
    transform.cake.stage_rows %target : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target);
}

def CakeVectorizeTacticOp : CakeTacticOp<"vectorize"> {
  let summary = "Tactic: widen the loads of an inner reduction loop to vector accesses";
  let description = !strconcat([{
    The tactic of `cake-tactic-vectorize`: rewrites every `scf.for` that walks the innermost
    dimension one element at a time and only reduces into the same loop stepping by `width`,
    with vector loads, vector arithmetic and vector partial sums added up after the loop (the sum
    is reassociated).

    Not applicable when no loop qualifies (a note per loop: bounds, step, the body's ops, the
    accumulators, accesses over 16 bytes, shared rows not a multiple of `width`). `width`
    (default 4) must be 2, 4, 8 or 16.

    ```mlir
    transform.cake.vectorize %target {width = 8 : i64} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "4">:$width);
  let hasVerifier = 1;
}

def CakeContractTacticOp : CakeTacticOp<"contract"> {
  let summary = "Tactic: let floating-point multiplies and the adds they feed fuse into FMAs";
  let description = !strconcat([{
    The tactic of `cake-tactic-contract`: adds `contract` to the fastmath flags of every
    `arith.mulf` that feeds an `arith.addf` or `arith.subf`, and of those adds and subtracts.

    Not applicable when no kernel has a multiply feeding an add or a subtract (an error per
    kernel), or when there is no kernel.

    ```mlir
    transform.cake.contract %target : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target);
}

def CakeIndexWidthTacticOp : CakeTacticOp<"index_width"> {
  let summary = "Tactic: lower a kernel's index arithmetic at another width (32-bit addresses)";
  let description = !strconcat([{
    The tactic of `cake-tactic-index-width`: sets `index_bitwidth = bits` on every kernel.

    Not applicable when every kernel already lowers index at `bits` bits. `bits` (default 32)
    must be 32 or 64.

    ```mlir
    transform.cake.index_width %target {bits = 32 : i64} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "32">:$bits);
  let hasVerifier = 1;
}

def CakeProgrammaticLaunchTacticOp : CakeTacticOp<"programmatic_launch"> {
  let summary = "Tactic: let each kernel start while the previous kernel of its stream finishes";
  let description = !strconcat([{
    The tactic of `cake-tactic-programmatic-launch`: inserts `cake.grid_dependency.wait` before
    the first op that touches global memory in every kernel of an sm_90+ target that has none.

    Not applicable when no kernel of an sm_90+ target lacks the wait.

    ```mlir
    transform.cake.programmatic_launch %target : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target);
}

def CakeTensorizeTacticOp : CakeTacticOp<"tensorize"> {
  let summary =
      "Tactic: compute a warp's dot-product reduction on tensor cores (mma.sync or wgmma)";
  let description = !strconcat([{
    The tactic of `cake-tactic-tensorize` (its documentation describes the rewrite and each
    option): the naive "one warp per row, lanes over candidates" dot-product reduction runs on
    `mma.sync` m16n8k16 or, with `mma = "wgmma"`, on a warpgroup's wgmma m64nNk16.

    Not applicable when no kernel has that reduction (a note per loop says why), when
    `mma = "wgmma"` meets a target without wgmma, partial warpgroups or a length that is not a
    multiple of 64, or when the tile does not fit the target's shared memory. The attributes
    (defaults: `tile` 64, `rows` 16, `prefetch` true, `buffers` 1, `fastpath` true, `mma`
    "sync", `unroll` 1) must be: `rows` 16 or 32, `tile` a multiple of 16 in 16 .. 256,
    `buffers` 1 or 2, `unroll` dividing `tile / 8`, `mma` "sync" or "wgmma" (with `rows` 16).

    ```mlir
    transform.cake.tensorize %target {tile = 64 : i64, mma = "wgmma"} : !transform.any_op
    ```
  }], CakeTacticTargetDoc);
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "64">:$tile,
                       DefaultValuedAttr<I64Attr, "16">:$rows,
                       DefaultValuedAttr<BoolAttr, "true">:$prefetch,
                       DefaultValuedAttr<I64Attr, "1">:$buffers,
                       DefaultValuedAttr<BoolAttr, "true">:$fastpath,
                       DefaultValuedAttr<StrAttr, "\"sync\"">:$mma,
                       DefaultValuedAttr<I64Attr, "1">:$unroll);
  let hasVerifier = 1;
}

#endif // CAKE_TRANSFORMS_TACTICOPS_TD
