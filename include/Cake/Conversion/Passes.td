//===- Passes.td - cake conversion passes ------------------*- tablegen -*-===//
#ifndef CAKE_CONVERSION_PASSES_TD
#define CAKE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CakeConvertToNVVMPass : Pass<"cake-convert-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower cake kernels to gpu.func kernels over gpu, nvvm, llvm, arith and scf";
  let description = [{
    Moves every `cake.kernel` into one `gpu.module @cake_kernels` as a `gpu.func` kernel, with
    global tensors as `!llvm.ptr<1>` parameters and the problem-size symbols appended as `i64`
    parameters (the ABI of the kernel manifest). Loads and stores become address arithmetic and
    `llvm.load`/`llvm.store` (masked accesses branch between one vector access and element-wise
    accesses), shared buffers become `addrspace(3)` globals with swizzled addressing, ids become
    `gpu` ops, and warp reductions become `gpu.shuffle xor` butterflies. A wgmma's shared-memory
    descriptor is its buffer's descriptor (loop-invariant) plus the tile's offset in 16-byte
    units. `math.exp2` on f32 (or a 1-D vector of f32) with `fastmath<afn>` becomes
    `ex2.approx.ftz.f32` (one MUFU instruction; denormal results flush to zero); other math ops
    are left to the upstream lowering.

    The pass attaches `#nvvm.target` to the gpu.module: `chip` defaults to the kernels' `target`
    (all kernels of a module must share one), `features` to `+ptx80` (`+ptx86` for sm_100a), which
    the NVPTX backend needs for the Hopper intrinsics.

    `hang-timeout-ms=N` (N > 0) is a debug lowering against hangs: every wait on an mbarrier
    phase (`cake.mbarrier.wait`, `cake.pipeline.consumer_wait`, `cake.pipeline.producer_acquire`)
    becomes a `try_wait` loop bounded by `%globaltimer`. The first thread whose wait expires
    writes {site, block, thread, parity, timeout} to the host-mapped buffer whose address the
    host stored in the global `__cake_hang_report`, then traps; sites are numbered in pre-order
    over the module, as the manifest's `hang_sites` (cake-translate `--hang-timeout-ms`) list
    them, and cake-run prints the stalled op, its location and role. Block and named barriers
    (`bar.sync`) have no bounded form in PTX and stay as they are.

    `index-bitwidth=32` (cake-lower-to-nvvm and cake-translate `--index-bitwidth`; without it, the
    kernels' `index_bitwidth` attribute) lowers `index` to i32, through the gpu.module's data
    layout (`#dlti.dl_spec<index = 32>`): address arithmetic takes one 32-bit multiply-add where i64 takes two or three. It is
    a contract: the manifest then bounds every tensor's largest element offset below 2^30
    (constraints the host checks, so a larger shape is refused, never computed wrong), which keeps
    index arithmetic up to twice a tensor's extent (tail tiles past its end) inside i32.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::DLTIDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"chip", "chip", "std::string", "\"\"",
           "Target chip (sm_80, sm_90, sm_90a, sm_100a); default: the kernels' target">,
    Option<"features", "features", "std::string", "\"\"",
           "PTX features; default +ptx80 (+ptx86 for sm_100a)">,
    Option<"optLevel", "opt-level", "unsigned", "3", "LLVM optimization level (0 to 3)">,
    Option<"hangTimeoutMs", "hang-timeout-ms", "unsigned", "0",
           "Debug lowering against hangs: bound every mbarrier wait by this many milliseconds, "
           "then report the stalled op and trap (0: off)">,
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "0",
           "Width `index` is lowered to, 64 or 32 (0: the kernels' index_bitwidth, else 64); "
           "recorded as the gpu.module's data layout, which convert-gpu-to-nvvm reads">
  ];
}

#endif // CAKE_CONVERSION_PASSES_TD
