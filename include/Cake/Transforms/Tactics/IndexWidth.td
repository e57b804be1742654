//===- IndexWidth.td - the tactic cake-tactic-index-width --------------------*- tablegen -*-===//
//
// One record: the pass, its transform op, its presets and its rewrite (TacticBase.td).
//
//===----------------------------------------------------------------------===//

defm CakeTacticIndexWidth : CakeTactic<"index-width", 8,
  "Tactic: lower a kernel's index arithmetic at another width (32-bit addresses)",
  [{
    Sets `index_bitwidth = bits` on every kernel (32 or 64). With 32, the lowering computes
    global offsets, bounds and columns in i32 and widens each element offset once at its
    address: fewer address instructions, measured on the H200 at 1.06x geomean on the KMeans
    library's best configuration per shape (1.19x wgmma, 0.96x simt:
    bench/results/2026-12-04-library-kmeans-9). The manifest then bounds every tensor's offsets
    and every grid dimension's threads below 2^30, so a task shape past them is refused at its
    shape check, never computed wrong (docs/Manifest.md).

    Preconditions: `bits` is 32 or 64, and some kernel is at another width, else
    `[tactic.not-applicable]` and failure.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})'
    ```
  }],
  /*options=*/[IntTacticOption<"bits", "32", "the index width, 32 or 64">],
  /*presets=*/// Any kernel that reads or writes global memory computes addresses.
  [TacticPreset<"index-32", [IntValue<"bits", 32>], ["cake.load"]>],
  /*dialects=*/[],
  /*rewrite=*/[{
  int64_t bits = options.bits;
  SmallVector<KernelOp> changed;
  root->walk([&](KernelOp kernel) {
    if (int64_t(kernel.getIndexBitwidth().value_or(64)) != bits)
      changed.push_back(kernel);
  });
  if (changed.empty())
    return mlir::emitError(root->getLoc())
           << "[tactic.not-applicable] cake-tactic-index-width: every kernel already lowers index "
              "at "
           << bits << " bits";
  Builder b(root->getContext());
  for (KernelOp kernel : changed) {
    if (bits == 64)
      kernel.removeIndexBitwidthAttr();
    else
      kernel.setIndexBitwidthAttr(b.getI64IntegerAttr(bits));
  }
  return success();
  }],
  /*check=*/[{
  if (options.bits != 32 && options.bits != 64)
    return "expected bits 32 or 64, got " + std::to_string(options.bits);
  return "";
  }]>;
